import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { StudentDecisionSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys } from './keys.ts';

const StudentDecisionsSchema = z.object({ items: z.array(StudentDecisionSchema) });

export const listDecisions = (signal?: AbortSignal) => api('/decisions', StudentDecisionsSchema, { signal });

export const decisionsQuery = () =>
  queryOptions({
    queryKey: applicationKeys.decisions,
    queryFn: ({ signal }) => listDecisions(signal),
    // Newest first, whatever order the list arrives in: the home screen shows the latest ones.
    select: ({ items }) => [...items].sort((a, b) => b.released_at.localeCompare(a.released_at)),
  });

/** The decisions released on the student's applications, newest first. */
export function useDecisions() {
  return useQuery(decisionsQuery());
}
