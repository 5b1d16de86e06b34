import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OnboardingStateSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { sessionQuery, startSession } from '../../../lib/session.tsx';
import { onboardingQuery } from './get-onboarding.ts';

export const completeOnboarding = () =>
  api('/students/me/onboarding/complete', OnboardingStateSchema, { method: 'POST' });

export function useCompleteOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeOnboarding,
    onSuccess: async (state) => {
      queryClient.setQueryData(onboardingQuery().queryKey, state);
      // The session says whether onboarding is done; the student area reads it to let the student in.
      const session = queryClient.getQueryData(sessionQuery().queryKey);
      if (session) await startSession(queryClient, { ...session, onboarding_complete: true });
      await queryClient.invalidateQueries({ queryKey: ['students', 'me', 'profile'] });
    },
  });
}
