import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamSchema, type TeamInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const updateTeam = (partnerId: string, teamId: string, input: TeamInput) =>
  api(partnerPath(partnerId, `/teams/${encodeURIComponent(teamId)}`), TeamSchema, { method: 'PUT', body: input });

export function useUpdateTeam(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, input }: { teamId: string; input: TeamInput }) => updateTeam(partnerId, teamId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.teams(partnerId) }),
  });
}
