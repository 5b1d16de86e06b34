import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, OnboardingStateSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getOnboarding = (signal?: AbortSignal) =>
  api('/students/me/onboarding', OnboardingStateSchema, signal ? { signal } : {});

export const onboardingQuery = () =>
  queryOptions({
    queryKey: ['students', 'me', 'onboarding'],
    queryFn: ({ signal }) => getOnboarding(signal),
    staleTime: CACHE_TTL_MS.students,
  });

export function useOnboarding() {
  return useQuery(onboardingQuery());
}
