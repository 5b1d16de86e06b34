import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, FormSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getForm = (partnerId: string, formId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/forms/${encodeURIComponent(formId)}`, FormSchema, { signal });

export const formQuery = (partnerId: string, formId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'forms', formId],
    queryFn: ({ signal }) => getForm(partnerId, formId, signal),
    staleTime: CACHE_TTL_MS.forms,
  });

/** One form with its sections and questions (named apart from react-hook-form's useForm). */
export function useApplicationForm(partnerId: string, formId: string) {
  return useQuery({ ...formQuery(partnerId, formId), enabled: partnerId !== '' });
}
