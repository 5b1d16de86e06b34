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

enhanceThemeSelects();
enhanceLanguageSelects();
enhanceReloadButtons();
scheduleRenderEvent();
