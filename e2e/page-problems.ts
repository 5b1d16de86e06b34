import { type ConsoleMessage, type Page } from '@playwright/test';
import { waitForApp } from './fixtures.ts';

/** Console errors and uncaught errors of a page, from now on. */
export function recordProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/**
 * Loads a public page fresh and waits until it has settled: the header marks when the session has been
 * read, which on a hydrated page comes after hydration (where a mismatch would be reported) and on a
 * static page after the enhancement module's work.
 */
export async function loadPublicPage(page: Page, path: string) {
  await page.goto(path);
  await waitForApp(page);
  await page.locator('header [data-session]:not([data-session="loading"])').waitFor({ state: 'attached' });
}
