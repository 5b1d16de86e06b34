/*
 * Who is signed in, for the entry pages' own bundle (ADR 044): the header offers a signed-in visitor the
 * way back to their area. Read once (`GET /auth/session`, preloaded by the page); the build resolves
 * `lib/session.tsx` to this module for those pages only.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { SessionUser } from '@kaminuza/shared';

export type Session = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; user: SessionUser };

const SessionContext = createContext<Session>({ status: 'loading' });

/** Loading in the server's render and in the render that hydrates it, as in the app. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>({ status: 'loading' });
  useEffect(() => {
    // Only the user's type is read here (which home the header links to); the schemas' code stays out.
    fetch('/api/v1/auth/session', { headers: { accept: 'application/json' } })
      .then(async (response) => (response.ok ? ((await response.json()) as { data?: unknown }) : null))
      .then(
        (body) => {
          const user = body?.data as SessionUser | null | undefined;
          const known = user && ['student', 'staff', 'admin'].includes(user.type);
          setSession(known ? { status: 'signed-in', user } : { status: 'signed-out' });
        },
        // Offline or the api unreachable: the ways in stay, which work for anyone.
        () => setSession({ status: 'signed-out' }),
      );
  }, []);
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): { session: Session } {
  return { session: useContext(SessionContext) };
}

/**
 * A session that just started: the next page, a new document, reads it itself. What a session that
 * ended without a sign-out (expired) left on the device goes first, as in the app.
 */
export async function startSession(_client: unknown, _user: SessionUser): Promise<void> {
  const { clearOfflineReads } = await import('../lib/clear-offline-reads.ts');
  await clearOfflineReads();
}
