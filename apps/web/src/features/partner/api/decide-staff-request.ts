import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StaffDecisionSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { staffRequestsQuery } from './get-staff-requests.ts';

export type StaffDecisionAction = 'approve' | 'decline';

export const decideStaffRequest = (partnerId: string, staffId: string, action: StaffDecisionAction) =>
  api(
    `/partners/${encodeURIComponent(partnerId)}/staff/${encodeURIComponent(staffId)}/${action}`,
    StaffDecisionSchema,
    { method: 'POST' },
  );

export function useDecideStaffRequest(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ staffId, action }: { staffId: string; action: StaffDecisionAction }) =>
      decideStaffRequest(partnerId, staffId, action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffRequestsQuery(partnerId).queryKey }),
  });
}
