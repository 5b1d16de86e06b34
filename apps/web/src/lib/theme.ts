import { THEME_STORAGE_KEY, THEMES, type Theme } from '@kaminuza/shared/constants';

/*
 * The stored preference is applied before first paint by the inline script in the HTML templates; this
 * module keeps it in step afterwards (user choice and, for "system", the operating system's setting).
 * Framework-free: static public pages use it too.
 */

const listeners = new Set<() => void>();
const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

export function readTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return (THEMES as readonly string[]).includes(stored ?? '') ? (stored as Theme) : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && darkQuery().matches);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private browsing without storage: the choice still applies for this visit.
  }
  applyTheme(theme);
  listeners.forEach((notify) => notify());
}

/** Follows the operating system while the preference is "system"; notifies on every change. */
export function subscribeTheme(notify: () => void): () => void {
  listeners.add(notify);
  const query = darkQuery();
  const onSystemChange = () => {
    if (readTheme() === 'system') applyTheme('system');
  };
  query.addEventListener('change', onSystemChange);
  return () => {
    listeners.delete(notify);
    query.removeEventListener('change', onSystemChange);
  };
}
