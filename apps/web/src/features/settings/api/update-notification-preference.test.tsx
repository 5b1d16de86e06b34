import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountSettings } from '@kaminuza/shared';
import { accountSettingsQuery } from '../../../lib/account-settings.ts';
import { useUpdateNotificationPreference } from './update-notification-preference.ts';

const USER = '00000000-0000-4000-8000-000000000001';
const STORED: AccountSettings = {
  theme: 'system',
  language: 'en',
  notifications: {
    email: { marketing: false, application_updates: true, reminders: true },
    push: { messages: true, status_updates: true, deadline_reminders: true },
  },
};

/** The api, answering each PATCH when the test says so: with what it stores, or with a failure. */
function fakeApi() {
  let stored = structuredClone(STORED);
  const pending: Array<{ body: AccountSettings['notifications']; respond: (ok: boolean) => void }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve) => {
          const body = (JSON.parse(String(init.body)) as { notifications: AccountSettings['notifications'] })
            .notifications;
          pending.push({
            body,
            respond: (ok) => {
              if (!ok) {
                resolve(
                  Response.json({ error: { status: 'INTERNAL', message: 'Something went wrong.' } }, { status: 500 }),
                );
                return;
              }
              stored = {
                ...stored,
                notifications: {
                  email: { ...stored.notifications.email, ...body.email },
                  push: { ...stored.notifications.push, ...body.push },
                },
              };
              resolve(Response.json({ data: stored }));
            },
          });
        }),
    ),
  );
  return {
    pending,
    answer: (index: number, ok: boolean) => act(async () => pending[index]?.respond(ok)),
  };
}

let queryClient: QueryClient;
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
);
const cached = () => queryClient.getQueryData<AccountSettings>(accountSettingsQuery(USER).queryKey);

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  queryClient.setQueryData(accountSettingsQuery(USER).queryKey, structuredClone(STORED));
});
afterEach(() => vi.unstubAllGlobals());

describe('turning a notification preference on or off', () => {
  it('moves the switch at once and keeps what the server stored', async () => {
    const server = fakeApi();
    const { result } = renderHook(() => useUpdateNotificationPreference(USER), { wrapper });
    act(() => result.current.mutate({ channel: 'email', preference: 'marketing', enabled: true }));
    await waitFor(() => expect(cached()?.notifications.email.marketing).toBe(true));
    expect(server.pending[0]?.body).toEqual({ email: { marketing: true } });
    await server.answer(0, true);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(cached()?.notifications.email).toEqual({ marketing: true, application_updates: true, reminders: true });
  });

  it('puts the switch back when the save fails, and reports the failure', async () => {
    const server = fakeApi();
    const { result } = renderHook(() => useUpdateNotificationPreference(USER), { wrapper });
    act(() => result.current.mutate({ channel: 'push', preference: 'messages', enabled: false }));
    await waitFor(() => expect(cached()?.notifications.push.messages).toBe(false));
    await server.answer(0, false);
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(cached()).toEqual(STORED);
  });

  it('undoes only the failed switch when two saves overlap', async () => {
    const server = fakeApi();
    const { result } = renderHook(() => useUpdateNotificationPreference(USER), { wrapper });
    act(() => result.current.mutate({ channel: 'email', preference: 'reminders', enabled: false }));
    await waitFor(() => expect(server.pending).toHaveLength(1));
    act(() => result.current.mutate({ channel: 'push', preference: 'deadline_reminders', enabled: false }));
    await waitFor(() => expect(server.pending).toHaveLength(2));
    expect(cached()?.notifications.email.reminders).toBe(false);
    expect(cached()?.notifications.push.deadline_reminders).toBe(false);

    await server.answer(0, false);
    await waitFor(() => expect(cached()?.notifications.email.reminders).toBe(true));
    expect(cached()?.notifications.push.deadline_reminders).toBe(false);
    await server.answer(1, true);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(cached()?.notifications).toEqual({
      email: STORED.notifications.email,
      push: { ...STORED.notifications.push, deadline_reminders: false },
    });
  });
});
