import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AdminInstitutionPageSchema, type AdminInstitutionsQuery } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, queryString } from './query-string.ts';

/** The review queue: institutions of a status with their submitted details, newest sign-ups first. */
export const getInstitutions = (params: AdminInstitutionsQuery, signal?: AbortSignal) =>
  api(`/admin/institutions${queryString(params)}`, AdminInstitutionPageSchema, { signal });

export const institutionsQuery = (params: AdminInstitutionsQuery) =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_KEY, 'institutions', params],
    queryFn: ({ signal }) => getInstitutions(params, signal),
  });

export function useInstitutions(params: AdminInstitutionsQuery) {
  return useQuery({ ...institutionsQuery(params), placeholderData: keepPreviousData });
}
