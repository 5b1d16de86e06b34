import { createContext, useContext, type ReactNode } from 'react';

export type UserType = 'student' | 'staff' | 'admin';

export interface SessionUser {
  id: string;
  email: string;
  type: UserType;
}

export type Session = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; user: SessionUser };

export interface SessionContextValue {
  session: Session;
  signOut: () => Promise<void>;
}

const SIGNED_OUT: SessionContextValue = { session: { status: 'signed-out' }, signOut: async () => {} };

const SessionContext = createContext<SessionContextValue>(SIGNED_OUT);

/**
 * Provides who is signed in. Accounts and sessions are the next feature to land; until a session
 * source is given here, every visitor is signed out, which the guards treat exactly as the spec says.
 */
export function SessionProvider({
  value = SIGNED_OUT,
  children,
}: {
  value?: SessionContextValue;
  children: ReactNode;
}) {
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  return useContext(SessionContext);
}
