/*
 * Where a visitor sent to sign in was going (an application start page opened from a shared link, an
 * Explore search), kept across the way in: sign-in, or sign-up, the emailed verification link (often
 * opened in another tab, hence localStorage) and onboarding. Kept for a day, taken once.
 */

const KEY = 'kaminuza.return-to';
const DAY_MS = 86_400_000;

/** Only the student area's own pages, never another origin or an auth page. */
const STUDENT_PAGES = /^\/(?:partners|application|home|profile|support|settings)(?:[/?#]|$)/;

export function isStudentPage(path: string): boolean {
  return STUDENT_PAGES.test(path) && !path.startsWith('//');
}

export function rememberReturn(path: string, now = Date.now()): void {
  if (!isStudentPage(path)) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ path, until: now + DAY_MS }));
  } catch {
    // Storage refused (private mode, quota): the visitor simply lands on their home page.
  }
}

/** The remembered page, left in place; null when none, expired or not a student page. */
export function peekReturn(now = Date.now()): string | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const { path, until } = JSON.parse(raw) as { path?: unknown; until?: unknown };
    if (typeof path !== 'string' || typeof until !== 'number' || until < now) return null;
    return isStudentPage(path) ? path : null;
  } catch {
    return null;
  }
}

export function forgetReturn(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** The remembered page, forgotten as it is taken. */
export function takeReturn(now = Date.now()): string | null {
  const path = peekReturn(now);
  forgetReturn();
  return path;
}
