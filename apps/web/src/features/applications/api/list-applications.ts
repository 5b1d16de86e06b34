import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ApplicationCardSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys } from './keys.ts';

export const listApplications = (signal?: AbortSignal) =>
  api('/applications', z.array(ApplicationCardSchema), { signal });

export const applicationCardsQuery = () =>
  queryOptions({ queryKey: applicationKeys.cards, queryFn: ({ signal }) => listApplications(signal) });

/** The applications area: one card per institution the student added or applied to. */
export function useApplicationCards() {
  return useQuery(applicationCardsQuery());
}
