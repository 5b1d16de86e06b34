/**
 * Static public pages: server-rendered HTML that needs no framework to read or navigate. This module
 * adds the few behaviours those pages have — theme and language choice, reload buttons — and fires the
 * spec's render event. It is the only script such a page loads (ADR 002).
 */
import './styles.css';
import { isLanguage } from './lib/languages.ts';
import { storeLanguage } from './lib/language-preference.ts';
import { applyTheme, readTheme, setTheme, subscribeTheme } from './lib/theme.ts';
import { scheduleRenderEvent } from './lib/render-event.ts';
import { THEMES, type Theme } from '@kaminuza/shared/constants';
import { homeOf } from './lib/paths.ts';

const isTheme = (value: string): value is Theme => (THEMES as readonly string[]).includes(value);

function enhanceThemeSelects() {
  const selects = [...document.querySelectorAll<HTMLSelectElement>('select[data-enhance="theme"]')];
  const sync = () => selects.forEach((select) => (select.value = readTheme()));
  sync();
  subscribeTheme(sync);
  applyTheme(readTheme());
  for (const select of selects) {
    select.addEventListener('change', () => {
      if (isTheme(select.value)) setTheme(select.value);
    });
  }
}

function enhanceLanguageSelects() {
  for (const select of document.querySelectorAll<HTMLSelectElement>('select[data-enhance="language"]')) {
    select.addEventListener('change', () => {
      if (!isLanguage(select.value)) return;
      storeLanguage(select.value);
      // The server sends each public page already rendered in the stored language.
      window.location.reload();
    });
  }
}

function enhanceReloadButtons() {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-enhance="reload"]')) {
    button.addEventListener('click', () => window.location.reload());
  }
}

/**
 * The page was prerendered for everyone, showing the ways in (sign in, sign up). For a signed-in visitor
 * they give way to the link to their own area (components/account-links.tsx renders both, marked).
 */
async function showAccountLinks() {
  const marks = document.querySelectorAll<HTMLElement>('[data-account]');
  if (marks.length === 0) return;
  let home: string | null = null;
  try {
    const response = await fetch('/api/v1/auth/session', { headers: { accept: 'application/json' } });
    const body = response.ok ? ((await response.json()) as { data?: { type?: unknown } | null }) : null;
    const type = body?.data?.type;
    if (type === 'student' || type === 'staff' || type === 'admin') home = homeOf(type);
  } catch {
    // Offline or the api unreachable: the ways in stay, which work for anyone.
  }
  for (const mark of marks) {
    const forSignedIn = mark.dataset.account === 'signed-in';
    mark.hidden = forSignedIn !== (home !== null);
    if (forSignedIn && home) mark.setAttribute('href', home);
  }
  for (const holder of document.querySelectorAll<HTMLElement>('[data-session]')) {
    holder.dataset.session = home ? 'signed-in' : 'signed-out';
  }
}

enhanceThemeSelects();
enhanceLanguageSelects();
enhanceReloadButtons();
void showAccountLinks();
scheduleRenderEvent();
