import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CACHE_TTL_MS, FormSummarySchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getForms = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/forms`, z.array(FormSummarySchema), { signal });

export const formsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'forms'],
    queryFn: ({ signal }) => getForms(partnerId, signal),
    staleTime: CACHE_TTL_MS.forms,
  });

export function useForms(partnerId: string) {
  return useQuery({ ...formsQuery(partnerId), enabled: partnerId !== '' });
}
