import { readdirSync, readFileSync } from 'node:fs';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { REDIRECTS } from '@kaminuza/shared';
import { apiData, axeViolations, expect, PUBLIC_PAGES, recordRenderEvent, test, waitForApp } from './fixtures.ts';
import { setUpReview, signInReadyInstitution, submitApplication, type ReadyInstitution } from './staff.ts';
import { signInNewStudent } from './students.ts';

/*
 * Every route of the app, in light and in dark, through axe: one browser per role (a visitor, a student
 * and the staff of the institution they applied to, an admin), its routes one after the other, each tab of
 * a tabbed screen included. The institutions are themed in colours that do not read on the app's surfaces
 * as they are, so an institution's areas are checked where a theme is hardest to keep readable (ADR 029).
 * Desktop runs both modes; the phone the dark one, light being checked at 360 px by each screen's own
 * test (ADR 017); the public pages' own test checks them in light at both sizes, so they are seen in dark
 * here. A route is loaded once and checked in both modes in place.
 */

type Mode = 'light' | 'dark';

/** Indigo: 4.47:1 on white, 3.74:1 on the dark surface, so neither mode can draw text in it as it is. */
const INDIGO = '#6366f1';
/** A pale yellow: white text on it would be 1.3:1. */
const PALE_YELLOW = '#fde68a';
/** The app's own brand colour (--kz-brand), which its buttons keep on an institution's pages. */
const APP_BRAND = { light: '#0f5e4d', dark: '#5fd0b3' };
const DEMO_ADMIN = { email: 'demo.admin@kaminuza.example', password: 'Kaminuza#2025' };

/** Placeholders of the route lists below, filled in with the ids the tests create. */
interface Ids {
  themed: string;
  pale: string;
  closed: string;
  formId: string;
  submissionId: string;
  letter: string;
}

const PUBLIC_ROUTES = [
  ...PUBLIC_PAGES.map(({ path }) => path),
  '/signup/partner/invitation?token=not-a-real-token',
  '/pay?reference=pay_000000000000000000000000',
  '/letters/AAAA-BBBB-CCCC',
  '/verify/receipt/AAAA-BBBB-CCCC',
  '/unsubscribe/not-a-real-token',
  '/reference/not-a-real-token',
  '/dev/mailbox',
  '/dev/phone',
  '/no/such/page',
];

const STUDENT_ROUTES = [
  '/home',
  '/partners',
  '/partners/{themed}',
  '/partners/{themed}/chat',
  '/partners/{pale}/application',
  '/partners/{themed}/application/submitted',
  '/partners/{themed}/application/decision',
  '/partners/{closed}/application/closed',
  '/partners/{themed}/application/not-found',
  '/application',
  '/application/decision?partner={themed}',
  '/letters/{letter}',
  '/form',
  '/profile',
  '/support',
  '/settings',
  '/onboarding/student',
  // Last: it starts a draft, which the start screen above would not show.
  '/partners/{pale}/application/form',
];

const STAFF_ROUTES = [
  '/partner/dashboard',
  '/partner/profile',
  '/partner/programs',
  '/partner/cycles',
  '/partner/forms',
  '/partner/forms/{formId}',
  '/partner/team',
  '/partner/settings',
  '/partner/account',
  '/partner/messages',
  '/partner/applications',
  '/partner/applications/{submissionId}',
  '/partner/applications/new',
  '/partner/finance',
  '/partner/fee-waivers',
  '/partner/no-such-screen',
];

const ADMIN_ROUTES = ['/admin/dashboard', '/admin/settings'];

/** Routes that show no page heading of their own. */
const WITHOUT_HEADING = new Set(['/form']);

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

/** WCAG 2 contrast of two computed `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/\d+/g) ?? []).slice(0, 3).map((value) => {
      const c = Number(value) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const fill = (route: string, ids: Ids) =>
  route.replace(/\{(\w+)\}/g, (_, name: keyof Ids) => encodeURIComponent(ids[name]));

/** A browser of its own at the project's size. */
async function ownPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const { viewport, isMobile, hasTouch } = test.info().project.use;
  // Reduced motion: colours change at once when the mode does, so axe never reads one mid-transition.
  const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await recordRenderEvent(page);
  return page;
}

const modes = (): Mode[] => (test.info().project.name === 'desktop' ? ['light', 'dark'] : ['dark']);

/** What a change of mode can break: the axe rules that read colours. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

const loading = (page: Page) => page.getByRole('status').filter({ hasText: /^(Loading|Connecting to servers)/ });

/**
 * Shows the page in `mode` and runs axe: every WCAG AA rule in light, the colour rules in dark (nothing
 * else changes with the mode). The theme is left on "system", which follows the emulated colour scheme as
 * it does for most users; the app's colours are all CSS (ADR 029), so switching in place is what a
 * reload in that mode would show. Soft: one run reports every violation of every route, not the first.
 */
async function axeIn(page: Page, mode: Mode, where: string, frames = true) {
  await page.emulateMedia({ colorScheme: mode });
  await expect(page.locator('html')).toHaveClass(mode === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  const rules = mode === 'dark' ? COLOUR_RULES : undefined;
  expect.soft(await axeViolations(page, { frames, rules }), `${where} in ${mode}`).toEqual([]);
}

/**
 * Each route, in each mode, and each tab of a tabbed screen in each mode. `after` checks more of a screen
 * once it passed (a panel it opens), and leaves it as it found it. `lightElsewhere`: routes whose own test
 * runs every rule on them in light at both sizes, so that here they are seen in dark only (their tabs in
 * both modes still).
 */
async function checkRoutes(
  page: Page,
  routes: readonly string[],
  after?: (route: string, mode: Mode) => Promise<void>,
  lightElsewhere: ReadonlySet<string> = new Set(),
) {
  for (const route of routes) {
    await test.step(route, async () => {
      await page.emulateMedia({ colorScheme: modes()[0] });
      await page.goto(route);
      await waitForApp(page);
      if (!WITHOUT_HEADING.has(route)) await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(loading(page)).toHaveCount(0);
      const routeModes = modes().filter((mode) => mode === 'dark' || !lightElsewhere.has(route));
      // The development mailbox shows emails in sandboxed frames, which axe cannot enter.
      for (const mode of routeModes) await axeIn(page, mode, route, route !== '/dev/mailbox');
      for (const mode of modes()) await after?.(route, mode);
      const tabs = page.getByRole('tab');
      for (let i = 1; i < (await tabs.count()); i += 1) {
        await tabs.nth(i).click();
        await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
        await expect(loading(page)).toHaveCount(0);
        for (const mode of modes()) await axeIn(page, mode, `${route}, tab ${i + 1}`);
      }
    });
  }
}

/** Themes the institution's primary (and secondary) colour, through the settings api as its Admin. */
async function paint(admin: Page, institution: ReadyInstitution, colour: string, baseURL: string) {
  const base = `/api/v1/partners/${institution.partnerId}/settings`;
  const { theme } = await apiData<{ theme: { colors: Record<string, string> } }>(await admin.request.get(base));
  await apiData(
    await admin.request.put(`${base}/theme`, {
      headers: { origin: baseURL },
      data: { ...theme, colors: { ...theme.colors, primary: colour, secondary: colour } },
    }),
  );
}

/**
 * Three themed institutions: `themed` (indigo), where the student's application is accepted and the
 * decision released, with its Admin signed in on `staff`; `pale` (a pale yellow band) where the student has
 * not applied yet; `closed`, whose cycle is past. The student is signed in on `student`.
 */
async function themedInstitutions(
  browser: Browser,
  staff: Page,
  student: Page,
  request: APIRequestContext,
  baseURL: string,
): Promise<Ids> {
  const headers = { origin: baseURL };
  const setup = await ownPage(browser, baseURL);
  const pale = await signInReadyInstitution(setup, request);
  await paint(setup, pale, PALE_YELLOW, baseURL);
  const closed = await signInReadyInstitution(setup, request, { closed: true });
  await paint(setup, closed, INDIGO, baseURL);
  await setup.context().close();

  const themed = await signInReadyInstitution(staff, request);
  await paint(staff, themed, INDIGO, baseURL);
  await setUpReview(
    staff,
    themed,
    {
      letter: 'Dear {student_name},\n\nWe are delighted to admit you to {program_name}.',
      rubric: [{ id: 'overall', name: 'Overall', weight: 1 }],
    },
    baseURL,
  );
  await signInNewStudent(student, request, baseURL);
  const receipt = await submitApplication(student, themed, baseURL);
  const review = `/api/v1/partners/${themed.partnerId}/review/submissions/${receipt.id}/decision`;
  await apiData(await staff.request.put(review, { headers, data: { state: 'accepted' } }));
  await apiData(
    await staff.request.post(`/api/v1/partners/${themed.partnerId}/decisions/release`, {
      headers,
      data: { submission_ids: [receipt.id], when: 'now' },
    }),
  );
  const letter = await apiData<{ verification_code: string }>(
    await student.request.get(`/api/v1/applications/${receipt.id}/decision/letter`),
  );
  return {
    themed: themed.partnerId,
    pale: pale.partnerId,
    closed: closed.partnerId,
    formId: themed.formId,
    submissionId: receipt.id,
    letter: letter.verification_code,
  };
}

test.describe('axe on every route, light and dark', () => {
  test('the routes above cover every route of the app', { tag: '@desktop-only' }, () => {
    // The route table is one file per shell.
    const dir = new URL('../apps/web/src/app/routes/', import.meta.url);
    const source = readdirSync(dir)
      .map((file) => readFileSync(new URL(file, dir), 'utf8'))
      .join('\n');
    const patterns = ['/', ...[...source.matchAll(/\bpath: '([^']+)'/g)].map(([, path]) => `/${path}`)].filter(
      (pattern) => pattern !== '/*',
    );
    expect(patterns.length).toBeGreaterThan(50);
    const ids: Ids = {
      themed: '00000000-0000-4000-8000-000000000001',
      pale: '00000000-0000-4000-8000-000000000002',
      closed: '00000000-0000-4000-8000-000000000003',
      formId: '00000000-0000-4000-8000-000000000004',
      submissionId: '00000000-0000-4000-8000-000000000005',
      letter: 'AAAA-BBBB-CCCC',
    };
    const visited = [...PUBLIC_ROUTES, ...STUDENT_ROUTES, ...STAFF_ROUTES, ...ADMIN_ROUTES].map(
      (route) => new URL(fill(route, ids), 'http://x').pathname,
    );
    const uncovered = patterns.filter((pattern) => {
      // A redirect is checked where it leads.
      if (pattern in REDIRECTS) return false;
      const matcher = new RegExp(`^${pattern.replace(/\/\*$/, '/.+').replace(/:\w+/g, '[^/]+')}$`);
      return !visited.some((path) => matcher.test(path));
    });
    expect(uncovered).toEqual([]);
  });

  test('public pages, without an account', async ({ browser, baseURL }) => {
    test.setTimeout(300_000);
    const page = await ownPage(browser, baseURL);
    // The public pages of spec section 2 pass axe in light at both sizes in e2e/public-site.spec.ts.
    await checkRoutes(page, PUBLIC_ROUTES, undefined, new Set(PUBLIC_PAGES.map(({ path }) => path)));
    await page.context().close();
  });

  test('a student and the staff of the themed institution they applied to', async ({ browser, request, baseURL }) => {
    test.setTimeout(600_000);
    const staff = await ownPage(browser, baseURL);
    const student = await ownPage(browser, baseURL);
    const ids = await themedInstitutions(browser, staff, student, request, baseURL!);

    await test.step("an institution's colours stay in its own areas, readable in both modes", async () => {
      for (const mode of modes()) {
        await student.emulateMedia({ colorScheme: mode });
        const brand = mode === 'light' ? APP_BRAND.light : APP_BRAND.dark;
        // Its page: the band in its colour as chosen; the app's own button keeps the app's colour.
        await student.goto(fill('/partners/{themed}', ids));
        const band = student.getByRole('heading', { level: 1 }).locator('xpath=../..');
        await expect(band).toHaveCSS('background-color', rgb(INDIGO));
        await expect(student.getByRole('link', { name: 'Apply', exact: true }).first()).toHaveCSS(
          'background-color',
          rgb(brand),
        );
        // The start screen of its application: the same.
        await student.goto(fill('/partners/{pale}/application', ids));
        await expect(student.locator('header').filter({ has: student.getByRole('heading', { level: 1 }) })).toHaveCSS(
          'background-color',
          rgb(PALE_YELLOW),
        );
        await expect(student.getByRole('button', { name: 'Start application' })).toHaveCSS(
          'background-color',
          rgb(brand),
        );
        // Its name above the decision: a shade of indigo that reads on the page, not indigo itself.
        await student.goto(fill('/partners/{themed}/application/decision', ids));
        const name = student.getByText(/^Lake Kivu Institute/).first();
        await expect(name).toBeVisible();
        const [text, page] = await name.evaluate((element) => [
          getComputedStyle(element).color,
          getComputedStyle(document.body).backgroundColor,
        ]);
        expect(text).not.toBe(rgb(INDIGO));
        expect(contrast(text!, page!), `${text} on ${page} in ${mode}`).toBeGreaterThanOrEqual(4.5);
      }
    });

    await checkRoutes(
      student,
      STUDENT_ROUTES.map((route) => fill(route, ids)),
      async (route, mode) => {
        if (route !== '/home' && !route.endsWith('/application/decision')) return;
        // The notifications panel, with the released decision in it, over the home and the decision itself.
        await student.getByTestId('notifications-bell').click();
        const panel = student.getByRole('region', { name: 'Notifications' });
        await expect(panel.getByTestId('notification').first()).toBeVisible();
        await axeIn(student, mode, `${route}, its notifications panel`);
        await panel.getByRole('button', { name: 'Close' }).click();
      },
    );
    await checkRoutes(
      staff,
      STAFF_ROUTES.map((route) => fill(route, ids)),
    );
    await staff.context().close();
    await student.context().close();
  });

  test('an admin', async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const page = await ownPage(browser, baseURL);
    await page.goto('/login/admin');
    await apiData(
      await page.request.post('/api/v1/auth/sign-in/admin', { headers: { origin: baseURL! }, data: DEMO_ADMIN }),
    );
    await checkRoutes(page, ADMIN_ROUTES);
    await page.context().close();
  });
});
