import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StudentProfileSchema, type ProfileUpdate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sessionQuery } from '../../../lib/session.tsx';
import { profileQuery } from './get-profile.ts';

export const updateProfile = (input: ProfileUpdate) =>
  api('/students/me/profile', StudentProfileSchema, { method: 'PATCH', body: input });

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (profile) => {
      queryClient.setQueryData(profileQuery().queryKey, profile);
      // The greeting shows the first and preferred names.
      await queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
      await queryClient.invalidateQueries({ queryKey: ['students', 'me', 'onboarding'] });
    },
  });
}
