import { queryOptions, useQuery } from '@tanstack/react-query';
import { StaffRequestListSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const getStaffRequests = (partnerId: string, signal?: AbortSignal) =>
  api(partnerPath(partnerId, '/staff/requests'), StaffRequestListSchema, { signal });

export const staffRequestsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: teamKeys.requests(partnerId),
    queryFn: ({ signal }) => getStaffRequests(partnerId, signal),
  });

/** Only members who manage the team may read them; others never ask. */
export function useStaffRequests(partnerId: string, enabled: boolean) {
  return useQuery({ ...staffRequestsQuery(partnerId), enabled: enabled && partnerId !== '' });
}
