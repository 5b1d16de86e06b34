import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AuditEntryPageSchema, type AdminAuditLogQuery } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, queryString } from './query-string.ts';

export const getAuditLog = (params: AdminAuditLogQuery, signal?: AbortSignal) =>
  api(`/admin/audit-log${queryString(params)}`, AuditEntryPageSchema, { signal });

export const auditLogQuery = (params: AdminAuditLogQuery) =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_KEY, 'audit-log', params],
    queryFn: ({ signal }) => getAuditLog(params, signal),
  });

export function useAuditLog(params: AdminAuditLogQuery) {
  return useQuery({ ...auditLogQuery(params), placeholderData: keepPreviousData });
}
