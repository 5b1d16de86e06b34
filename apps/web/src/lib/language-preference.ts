import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, type Language } from '@kaminuza/shared/constants';

const ONE_YEAR_SECONDS = 31_536_000;

/**
 * Stores the visitor's language where the browser's detection (local storage) and the server's page
 * choice (cookie) both read it — the same places i18next's detector caches it in the app.
 */
export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage refused: the cookie alone still carries the choice.
  }
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax`;
}
