import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OnboardingStateSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sessionQuery, type SessionUser } from '../../../lib/session.tsx';
import { onboardingQuery } from './get-onboarding.ts';

export const completeOnboarding = () =>
  api('/students/me/onboarding/complete', OnboardingStateSchema, { method: 'POST' });

export function useCompleteOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeOnboarding,
    onSuccess: async (state) => {
      // The session says whether onboarding is done; the student area reads it to let the student in. It
      // is updated first, in the same tick as the onboarding state: the onboarding page leaves for the
      // student area as soon as it sees the state complete, and a session still saying "not done" would
      // send the student back to onboarding. A session read still in flight is cancelled first, so it
      // cannot land afterwards with the old answer.
      await queryClient.cancelQueries({ queryKey: sessionQuery().queryKey });
      const session = queryClient.getQueryData(sessionQuery().queryKey);
      if (session) {
        const admitted: SessionUser = { ...session, onboarding_complete: true };
        queryClient.setQueryData(sessionQuery().queryKey, admitted);
      }
      queryClient.setQueryData(onboardingQuery().queryKey, state);
      await queryClient.invalidateQueries({ queryKey: ['students', 'me', 'profile'] });
    },
  });
}
