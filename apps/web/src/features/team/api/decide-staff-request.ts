import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StaffDecisionSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export type StaffDecisionAction = 'approve' | 'decline';

export const decideStaffRequest = (partnerId: string, staffId: string, action: StaffDecisionAction) =>
  api(partnerPath(partnerId, `/staff/${encodeURIComponent(staffId)}/${action}`), StaffDecisionSchema, {
    method: 'POST',
  });

/** An approved request becomes a member, so both lists are refreshed. */
export function useDecideStaffRequest(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ staffId, action }: { staffId: string; action: StaffDecisionAction }) =>
      decideStaffRequest(partnerId, staffId, action),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.requests(partnerId) }),
        queryClient.invalidateQueries({ queryKey: teamKeys.members(partnerId) }),
      ]),
  });
}
