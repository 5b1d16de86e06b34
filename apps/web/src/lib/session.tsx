import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  AcknowledgedSchema,
  CACHE_TTL_MS,
  LANGUAGE_STORAGE_KEY,
  SessionUserSchema,
  THEME_STORAGE_KEY,
  type SessionUser,
  type UserType,
} from '@kaminuza/shared';
import { nullable } from 'zod/mini';
import { api } from './api-client.ts';
import { clearOfflineReads } from './clear-offline-reads.ts';
import { INSTALL_DISMISSED_KEY } from './install-prompt.ts';

export type { SessionUser, UserType };

export type Session = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; user: SessionUser };

export interface SessionContextValue {
  session: Session;
  signOut: () => Promise<void>;
}

export const sessionQuery = () =>
  queryOptions({
    queryKey: ['auth', 'session'],
    queryFn: ({ signal }) => api('/auth/session', nullable(SessionUserSchema), { signal }),
    staleTime: CACHE_TTL_MS.users,
  });

/**
 * Records a session that just started (sign-in, verified email). A session request still in flight
 * from the page load would otherwise land afterwards and overwrite it with "signed out".
 */
export async function startSession(queryClient: QueryClient, user: SessionUser): Promise<void> {
  await queryClient.cancelQueries({ queryKey: sessionQuery().queryKey });
  // A session that ended without a sign-out (expired) may have left its reads behind.
  await clearOfflineReads();
  queryClient.setQueryData(sessionQuery().queryKey, user);
}

/** Preferences that outlive a sign-out: they belong to the device, not the account. */
const DEVICE_KEYS = [LANGUAGE_STORAGE_KEY, THEME_STORAGE_KEY, INSTALL_DISMISSED_KEY];

/** Sign-out clears local storage (spec section 9), keeping the device's language and theme. */
function clearLocalStorage() {
  try {
    const kept = DEVICE_KEYS.map((key) => [key, localStorage.getItem(key)] as const);
    localStorage.clear();
    for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: nothing to clear.
  }
}

const SessionContext = createContext<SessionContextValue>({ session: { status: 'loading' }, signOut: async () => {} });

/** Who is signed in, from the session cookie (GET /auth/session). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const query = useQuery(sessionQuery());

  const signOut = useCallback(async () => {
    try {
      await api('/auth/sign-out', AcknowledgedSchema, { method: 'POST' });
    } finally {
      clearLocalStorage();
      await clearOfflineReads();
      queryClient.setQueryData(sessionQuery().queryKey, null);
      await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'auth' });
    }
  }, [queryClient]);

  const { data, isPending } = query;
  const value = useMemo<SessionContextValue>(() => {
    const session: Session = data
      ? { status: 'signed-in', user: data }
      : isPending
        ? { status: 'loading' }
        : { status: 'signed-out' };
    return { session, signOut };
  }, [data, isPending, signOut]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  return useContext(SessionContext);
}
