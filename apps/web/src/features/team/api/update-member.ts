import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StaffMemberSchema, type StaffMemberUpdate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const updateMember = (partnerId: string, staffId: string, update: StaffMemberUpdate) =>
  api(partnerPath(partnerId, `/staff/${encodeURIComponent(staffId)}`), StaffMemberSchema, {
    method: 'PATCH',
    body: update,
  });

/** A member's teams show on the Teams tab too, so both lists are refreshed. */
export function useUpdateMember(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ staffId, update }: { staffId: string; update: StaffMemberUpdate }) =>
      updateMember(partnerId, staffId, update),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.members(partnerId) }),
        queryClient.invalidateQueries({ queryKey: teamKeys.teams(partnerId) }),
      ]),
  });
}
