import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const setTeamMembers = (partnerId: string, teamId: string, staffIds: string[]) =>
  api(partnerPath(partnerId, `/teams/${encodeURIComponent(teamId)}/members`), TeamSchema, {
    method: 'PUT',
    body: { staff_ids: staffIds },
  });

/** Membership is stored on the members, so the members' list changes too. */
export function useSetTeamMembers(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, staffIds }: { teamId: string; staffIds: string[] }) =>
      setTeamMembers(partnerId, teamId, staffIds),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all(partnerId) }),
  });
}
