import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AdminInstitutionPageSchema, type AdminInstitutionsQuery } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, queryString } from './query-string.ts';

/** Every institution, best name match first, with a status filter and paging. */
export const getUniversities = (params: AdminInstitutionsQuery, signal?: AbortSignal) =>
  api(`/admin/universities${queryString(params)}`, AdminInstitutionPageSchema, { signal });

export const universitiesQuery = (params: AdminInstitutionsQuery) =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_KEY, 'universities', params],
    queryFn: ({ signal }) => getUniversities(params, signal),
  });

export function useUniversities(params: AdminInstitutionsQuery) {
  return useQuery({ ...universitiesQuery(params), placeholderData: keepPreviousData });
}
