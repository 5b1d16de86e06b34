import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AdminApplicationPageSchema, type AdminApplicationsQuery } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, queryString } from './query-string.ts';

export const getApplications = (params: AdminApplicationsQuery, signal?: AbortSignal) =>
  api(`/admin/applications${queryString(params)}`, AdminApplicationPageSchema, { signal });

export const applicationsQuery = (params: AdminApplicationsQuery) =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_KEY, 'applications', params],
    queryFn: ({ signal }) => getApplications(params, signal),
  });

export function useApplications(params: AdminApplicationsQuery) {
  return useQuery({ ...applicationsQuery(params), placeholderData: keepPreviousData });
}
