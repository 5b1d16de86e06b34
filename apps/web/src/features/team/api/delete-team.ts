import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AcknowledgedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const deleteTeam = (partnerId: string, teamId: string) =>
  api(partnerPath(partnerId, `/teams/${encodeURIComponent(teamId)}`), AcknowledgedSchema, { method: 'DELETE' });

/** Deleting a team takes it off its members and invitations too. */
export function useDeleteTeam(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (teamId: string) => deleteTeam(partnerId, teamId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all(partnerId) }),
  });
}
