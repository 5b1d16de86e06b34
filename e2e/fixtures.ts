import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIResponse, type Browser, type Page } from '@playwright/test';

export { expect };

/** Pages record the app's render event (fired 100 ms after start) so tests know hydration is done. */
export async function recordRenderEvent(page: Page) {
  await page.addInitScript(() => {
    addEventListener('kaminuza:render', () => {
      (window as unknown as { __kzRendered?: boolean }).__kzRendered = true;
    });
  });
}

export const test = base.extend({
  page: async ({ page }, use) => {
    await recordRenderEvent(page);
    await use(page);
  },
});

/** The public pages of spec section 2. */
export const PUBLIC_PAGES = [
  { path: '/', name: 'landing' },
  { path: '/programs', name: 'programs' },
  { path: '/resources', name: 'resources' },
  { path: '/help', name: 'help' },
  { path: '/terms', name: 'terms' },
  { path: '/privacy', name: 'privacy' },
  { path: '/contact-us', name: 'contact' },
  { path: '/about/us', name: 'about us' },
  { path: '/about/student', name: 'about student' },
  { path: '/about/partner', name: 'about partner' },
  { path: '/plan-for-university', name: 'plan' },
  { path: '/waitlist', name: 'waitlist' },
  { path: '/signup/live', name: 'sign up' },
  { path: '/signup/partner', name: 'institution sign up' },
  { path: '/signup/partner/pending', name: 'institution pending' },
  { path: '/pending', name: 'verification pending' },
  { path: '/auth/verify-email', name: 'verify email' },
  { path: '/login', name: 'sign in' },
  { path: '/login/admin', name: 'admin sign in' },
  { path: '/forgot-password', name: 'forgot password' },
  { path: '/reset-password', name: 'reset password' },
] as const;

/**
 * The page's violations of WCAG 2.2 AA, as axe tags it, one line each: rule and elements. `rules` narrows
 * the check to those rules (the colour rules, when only the colours changed).
 */
export async function axeViolations(
  page: Page,
  { frames = true, rules }: { frames?: boolean; rules?: string[] } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  builder = rules
    ? builder.withRules(rules)
    : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  // A sandboxed frame (an email shown in the dev mailbox) runs no script, so axe cannot enter it.
  if (!frames) builder = builder.setLegacyMode(true).options({ iframes: false });
  const results = await builder.analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function expectNoAxeViolations(page: Page, options: { frames?: boolean } = {}) {
  expect(await axeViolations(page, options)).toEqual([]);
}

/** Waits until React has hydrated the prerendered page (the spec's render event has fired). */
export async function waitForApp(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __kzRendered?: boolean }).__kzRendered === true);
}

/** Opens the header menu on narrow screens, where the switchers and links live in a disclosure. */
export async function openMenuIfCollapsed(page: Page) {
  // The header may not be on screen yet (a signed-in area shows it once the session is read): wait for it,
  // or a narrow screen's menu looks absent and stays closed.
  await page.locator('header').locator('summary, select').first().waitFor({ state: 'attached' });
  const summary = page.locator('header summary');
  if (await summary.isVisible()) {
    const open = await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open);
    if (!open) await summary.click();
  }
}

export async function chooseLanguage(page: Page, label: 'English' | 'Français' | 'Kinyarwanda') {
  const value = { English: 'en', Français: 'fr', Kinyarwanda: 'rw' }[label];
  await openMenuIfCollapsed(page);
  await page
    .getByRole('combobox', { name: /^(Language|Langue|Ururimi)$/ })
    .locator('visible=true')
    .selectOption(value);
}

export async function chooseTheme(page: Page, value: 'light' | 'dark' | 'system') {
  await openMenuIfCollapsed(page);
  await page
    .getByRole('combobox', { name: /^(Theme|Thème|Insanganyamatsiko)$/ })
    .locator('visible=true')
    .selectOption(value);
}

/** The `data` of an api answer, once it is checked to have succeeded (a failure names the url, status and body). */
export async function apiData<T>(response: APIResponse): Promise<T> {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

/** No axe violation, and nothing wider than the screen. */
export async function expectAccessibleAndFitting(page: Page) {
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** A browser of its own (another person or device), sized like the project's: 360 px on the mobile project. */
export async function ownBrowser(
  browser: Browser,
  baseURL: string | undefined,
  { serviceWorkers = 'block' }: { serviceWorkers?: 'allow' | 'block' } = {},
): Promise<Page> {
  const { viewport, isMobile, hasTouch } = test.info().project.use;
  // As the suite's own contexts (playwright.config.ts): no service worker unless the test is about one.
  const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch, serviceWorkers });
  const page = await context.newPage();
  await recordRenderEvent(page);
  return page;
}
