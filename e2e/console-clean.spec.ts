import { LANGUAGES } from '@kaminuza/shared/constants';
import { PUBLIC_PAGES } from '@kaminuza/shared/routes';
import { expect, recordRenderEvent, test, waitForApp } from './fixtures.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { loadPublicPage, recordProblems } from './page-problems.ts';
import { signUpStudent } from './students.ts';

/**
 * Every page the build prerenders, loaded fresh in each language, logs nothing: no console error, no
 * uncaught error (React reports a hydration mismatch, #418, as one). One browser context and one page
 * loaded after another keep the cost to about a second a page; what a page looks like at 360 px is
 * checked by the other public-site tests, so this runs on desktop only (ADR 017).
 */

test.describe('no console errors', () => {
  for (const lang of LANGUAGES) {
    test(`on every prerendered page in ${lang}`, { tag: '@desktop-only' }, async ({ browser, baseURL }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ baseURL });
      // The stored choice: the server sends each page in this language, which the app hydrates.
      await context.addCookies([{ name: 'i18next', value: lang, url: baseURL! }]);
      const page = await context.newPage();
      await recordRenderEvent(page);
      const problems = recordProblems(page);
      const found: string[] = [];
      const check = async (path: string) => {
        problems.length = 0;
        await loadPublicPage(page, path);
        found.push(...problems.map((problem) => `${path}: ${problem}`));
      };

      for (const path of PUBLIC_PAGES) await check(path);
      // The links of the emails: the prerendered pages, arrived at with what their query string carries.
      await check('/reset-password?token=not-yet-used');
      await check('/signup?ref=e2e');
      expect(found).toEqual([]);

      // The not-found page: its 404 is the answer itself, which Chromium logs as a failed resource.
      problems.length = 0;
      const response = await page.goto('/no/such/page');
      expect(response?.status()).toBe(404);
      await page.locator('header [data-session]:not([data-session="loading"])').waitFor({ state: 'attached' });
      expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
      await context.close();
    });
  }

  test('on every prerendered page, signed in', { tag: '@desktop-only' }, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await recordRenderEvent(page);
    const signedIn = await page.request.post('/api/v1/auth/sign-in', {
      headers: { origin: baseURL! },
      data: { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' },
    });
    expect(signedIn.status()).toBe(200);
    const problems = recordProblems(page);
    const found: string[] = [];
    for (const path of PUBLIC_PAGES) {
      problems.length = 0;
      await page.goto(path);
      await waitForApp(page);
      // Signed in, the header switches to the dashboard link once the session is read (some account
      // screens send a signed-in visitor on, and have no such header then).
      await page.waitForLoadState('networkidle');
      found.push(...problems.map((problem) => `${path}: ${problem}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });

  test(
    'when a verification link and a stored address are read on load',
    { tag: '@desktop-only' },
    async ({ browser, baseURL, request }) => {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await recordRenderEvent(page);
      const problems = recordProblems(page);
      const email = await signUpStudent(request, baseURL!, 'console');

      // The pending screen remembers the address across a reload (session storage).
      await loadPublicPage(page, '/pending');
      await page.evaluate((address) => sessionStorage.setItem('kaminuza.pendingEmail', address), email);
      await page.reload();
      await waitForApp(page);
      await expect(page.getByText(email)).toBeVisible();

      // The verification link signs in and leads on to onboarding.
      await page.goto(linkIn((await latestEmail(request, email, /verif/i)).text, '/auth/verify-email'));
      await expect(page).toHaveURL(/\/onboarding\/student$/);
      await page.waitForLoadState('networkidle');
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
