import { queryOptions, useQuery } from '@tanstack/react-query';
import { StaffRequestListSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getStaffRequests = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/staff/requests`, StaffRequestListSchema, { signal });

/** Same key as the Team page's list, so a decision there updates the dashboard's count. */
export const staffRequestsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['partner', partnerId, 'staff-requests'],
    queryFn: ({ signal }) => getStaffRequests(partnerId, signal),
  });

export function useStaffRequests(partnerId: string, enabled: boolean) {
  return useQuery({ ...staffRequestsQuery(partnerId), enabled: enabled && partnerId !== '' });
}
