import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { OnboardingState, SessionUser } from '@kaminuza/shared';
import { sessionQuery } from '../../../lib/session.tsx';
import { useCompleteOnboarding } from './complete-onboarding.ts';
import { onboardingQuery } from './get-onboarding.ts';

const profile: OnboardingState['profile'] = {
  email: 'aline@example.com',
  first_name: 'Aline',
  last_name: 'Uwase',
  preferred_name: null,
  phone: null,
  language: 'en',
  date_of_birth: null,
  gender: null,
  nationality: null,
  address: null,
  city: null,
  country: null,
  country_of_residence: null,
  postal_code: null,
  education_level: null,
  school: null,
  graduation_year: null,
  gpa: null,
  major: null,
  degree_type: null,
  exam_sittings: [],
  profile_picture: null,
  is_complete: true,
  profile_completion: 60,
  onboarding_step: 6,
};
const done: OnboardingState = { step: 6, is_complete: true, profile };
const student = { id: 'u1', type: 'student', onboarding_complete: false } as SessionUser;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('finishing onboarding', () => {
  it('lets the student in before the onboarding page sees itself complete, and a session read in flight cannot undo it', async () => {
    const client = new QueryClient();
    client.setQueryData(sessionQuery().queryKey, student);
    client.setQueryData(onboardingQuery().queryKey, { ...done, is_complete: false });
    let answerSessionRead: ((response: Response) => void) | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/auth/session')
          ? new Promise<Response>((resolve) => (answerSessionRead = resolve))
          : new Response(JSON.stringify({ data: done }), { headers: { 'content-type': 'application/json' } }),
      ),
    );
    // A session read the page started earlier, still on its way with the old answer.
    void client.refetchQueries({ queryKey: sessionQuery().queryKey });
    // What the onboarding page would see at the moment it leaves for the student area.
    const seen: Array<boolean | undefined> = [];
    client.getQueryCache().subscribe(() => {
      const state = client.getQueryData<OnboardingState>(onboardingQuery().queryKey);
      if (state?.is_complete) seen.push(client.getQueryData<SessionUser>(sessionQuery().queryKey)?.onboarding_complete);
    });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useCompleteOnboarding(), { wrapper });
    await act(() => result.current.mutateAsync());
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((complete) => complete === true)).toBe(true);
    answerSessionRead?.(
      new Response(JSON.stringify({ data: { ...student } }), { headers: { 'content-type': 'application/json' } }),
    );
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(client.getQueryData<SessionUser>(sessionQuery().queryKey)?.onboarding_complete).toBe(true);
  });
});
