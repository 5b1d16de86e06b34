import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TeamSchema, type TeamInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const createTeam = (partnerId: string, input: TeamInput) =>
  api(partnerPath(partnerId, '/teams'), TeamSchema, { method: 'POST', body: input });

export function useCreateTeam(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TeamInput) => createTeam(partnerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.teams(partnerId) }),
  });
}
