/** The address a verification email went to, so the pending screen survives a reload. */
const KEY = 'kaminuza.pendingEmail';

export function rememberPendingEmail(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Storage refused: the screen then asks for the address when resending.
  }
}

export function pendingEmail(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}
