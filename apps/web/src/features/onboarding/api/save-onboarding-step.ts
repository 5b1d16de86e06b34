import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OnboardingStateSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { onboardingQuery } from './get-onboarding.ts';

export const saveOnboardingStep = ({ step, values }: { step: number; values: object }) =>
  api(`/students/me/onboarding/steps/${step}`, OnboardingStateSchema, { method: 'PUT', body: values });

export function useSaveOnboardingStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveOnboardingStep,
    onSuccess: (state) => {
      queryClient.setQueryData(onboardingQuery().queryKey, state);
      void queryClient.invalidateQueries({ queryKey: ['students', 'me', 'profile'] });
    },
  });
}
