import { readFileSync } from 'node:fs';
import {
  PUBLIC_PAGES,
  chooseLanguage,
  chooseTheme,
  expect,
  expectNoAxeViolations,
  openMenuIfCollapsed,
  recordRenderEvent,
  test,
  waitForApp,
} from './fixtures.ts';

test.describe('public pages', () => {
  for (const { path, name } of PUBLIC_PAGES) {
    test(`${name} (${path}) renders, fits the screen, passes axe and offers Sign in`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page).toHaveTitle(/Kaminuza/);
      await expect(page.getByRole('contentinfo')).toContainText('© 2025 Kaminuza');
      await waitForApp(page);
      // Every public page has Sign in in its header, leading to /login (followed below, from one of them).
      const signIn = page.getByRole('banner').getByRole('link', { name: 'Sign in' });
      await expect(signIn).toBeVisible();
      await expect(signIn).toHaveAttribute('href', '/login');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }

  test('public pages arrive as HTML before any script runs', { tag: '@desktop-only' }, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/about/us');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/programs');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await context.close();
  });

  test(
    'the landing page shows the demo catalogue, rendered on the server',
    { tag: '@desktop-only' },
    async ({ browser }) => {
      // No JavaScript at all: the figures and featured universities are in the HTML itself.
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto('/');
      const figures = page.getByRole('heading', { name: 'The catalogue in numbers' }).locator('..');
      await expect(figures).toContainText(/\d+\s*universities/);
      await expect(figures).toContainText(/\d+\s*countries/);
      await expect(
        page.getByRole('heading', { name: 'Featured universities' }).locator('../..').getByRole('listitem'),
      ).toHaveCount(6);
      await context.close();
    },
  );
});

test.describe('routing', () => {
  test('/signup redirects to /waitlist keeping the query string', { tag: '@desktop-only' }, async ({ page }) => {
    await page.goto('/signup?ref=friend42&utm_source=sms');
    await expect(page).toHaveURL(/\/waitlist\?ref=friend42&utm_source=sms$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Join the waitlist');
  });

  for (const [from, to] of [
    ['/about', '/about/us'],
    ['/apply-to-university', '/about/student'],
    ['/partner', '/about/partner'],
  ] as const) {
    test(`${from} redirects to ${to}`, { tag: '@desktop-only' }, async ({ page }) => {
      await page.goto(`${from}?x=1`);
      await expect(page).toHaveURL(new RegExp(`${to}\\?x=1$`));
    });
  }

  test("the header's Get started leads to applicant sign-up", async ({ page }) => {
    await page.goto('/');
    await waitForApp(page);
    await openMenuIfCollapsed(page);
    await page.getByRole('banner').getByRole('link', { name: 'Get started' }).locator('visible=true').click();
    await expect(page).toHaveURL(/\/signup\/live$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your applicant account');
  });

  test('unknown paths show the not-found page with a 404', { tag: '@desktop-only' }, async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await waitForApp(page);
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('inside the app, an information page loads its texts in the current language', async ({ page }) => {
    await page.goto('/waitlist');
    await waitForApp(page);
    await chooseLanguage(page, 'Kinyarwanda');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Ubufasha' }).click();
    await expect(page).toHaveURL(/\/help$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ahatangirwa ubufasha');
    await chooseLanguage(page, 'English');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Help centre');
  });

  test('a route change inside the app scrolls to the top', async ({ page }) => {
    // The waitlist page is a React app; its links navigate without reloading.
    await page.goto('/waitlist');
    await waitForApp(page);
    const footer = page.getByRole('contentinfo');
    await footer.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await footer.getByRole('link', { name: 'Help' }).click();
    await expect(page).toHaveURL(/\/help$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('signed-in areas send visitors without a session to /login', { tag: '@desktop-only' }, async ({ page }) => {
    for (const path of [
      '/home',
      '/partners',
      '/application/form',
      '/admin/dashboard',
      '/partner/settings',
      '/dashboard',
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });
});

test.describe('language and theme', () => {
  test('on a static page, switching language reloads it in that language, which sticks', async ({ page }) => {
    await page.goto('/about/us');
    await waitForApp(page);
    await chooseLanguage(page, 'Français');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('contentinfo')).toContainText('Tous droits réservés');
    await expect(page).toHaveTitle(/À propos/);
    await page.goto('/help');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await waitForApp(page);
    await expectNoAxeViolations(page);

    await chooseLanguage(page, 'Kinyarwanda');
    await expect(page.locator('html')).toHaveAttribute('lang', 'rw');
    await expect(page.getByRole('contentinfo')).toContainText('Uburenganzira bwose burasigasiwe');
    await waitForApp(page);
    await expectNoAxeViolations(page);
  });

  test('in the app, switching language changes the interface at once', async ({ page }) => {
    await page.goto('/waitlist');
    await waitForApp(page);
    await chooseLanguage(page, 'Kinyarwanda');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("Iyandikishe ku rutonde rw'abategereje");
    await expect(page.locator('html')).toHaveAttribute('lang', 'rw');
    await expect(page).toHaveTitle(/Urutonde rw'abategereje/);
    await chooseLanguage(page, 'Français');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("Rejoindre la liste d'attente");
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("Rejoindre la liste d'attente");
  });

  test(
    'a language chosen earlier (its cookie) wins over the browser, before and after hydration',
    { tag: '@desktop-only' },
    async ({ browser, baseURL }) => {
      const context = await browser.newContext({ locale: 'en-US' });
      await context.addCookies([{ name: 'i18next', value: 'rw', url: baseURL! }]);
      const page = await context.newPage();
      await recordRenderEvent(page);
      await page.goto('/login');
      await expect(page.locator('html')).toHaveAttribute('lang', 'rw');
      await waitForApp(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Injira');
      await context.close();
    },
  );

  test('a browser in French gets French pages first', { tag: '@desktop-only' }, async ({ browser }) => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('contentinfo')).toContainText('Tous droits réservés');
    await context.close();
  });

  test('the theme switches, is stored, and applies before first paint', async ({ page }) => {
    await page.goto('/');
    await waitForApp(page);
    await chooseTheme(page, 'dark');
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.reload({ waitUntil: 'commit' });
    await page.waitForSelector('html.dark', { state: 'attached' });
    expect(
      await page.evaluate(
        () => document.readyState !== 'complete' || document.documentElement.classList.contains('dark'),
      ),
    ).toBe(true);
    await waitForApp(page);
    await expectNoAxeViolations(page);
    await openMenuIfCollapsed(page);
    await expect(page.getByRole('combobox', { name: 'Theme' }).locator('visible=true')).toHaveValue('dark');
    await chooseTheme(page, 'light');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
  });
});

test.describe('error screen', () => {
  test(
    'a screen that fails to load shows the error screen, whose Copy error shows Copied! for 2 s',
    { tag: '@desktop-only' },
    async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/waitlist');
      await waitForApp(page);
      // Chunks are named by their hash: the build's manifest says which one is the Help page.
      const manifest = JSON.parse(
        readFileSync(new URL('../apps/web/dist/.vite/manifest.json', import.meta.url), 'utf8'),
      ) as Record<string, { file: string }>;
      const helpChunk = manifest['src/features/public/components/help-page.tsx']!.file;
      await page.route(
        (url) => url.pathname === `/${helpChunk}`,
        (route) => route.abort(),
      );
      await page.getByRole('contentinfo').getByRole('link', { name: 'Help' }).click();
      await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
      await expect(page.getByText('We encountered an unexpected error. Please try reloading the page.')).toBeVisible();
      await page.getByText('Error details').click();
      await page.getByRole('button', { name: 'Copy error' }).click();
      await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
        /help-page|dynamically imported module|Failed to fetch/i,
      );
      await expect(page.getByRole('button', { name: 'Copy error' })).toBeVisible({ timeout: 3_000 });
      await page.unroute(/\/assets\/help-page-[^/]+\.js$/);
      await page.getByRole('button', { name: 'Reload page' }).click();
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Something went wrong');
    },
  );
});

test.describe('waitlist', () => {
  test(
    'a visitor joins once; joining again says they are already on the list',
    { tag: '@desktop-only' },
    async ({ page }) => {
      const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
      await page.goto('/signup?ref=e2e');
      await waitForApp(page);
      await page.getByLabel('Email address').fill('not-an-email');
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      await expect(page.getByText('Invalid email address')).toBeVisible();
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      await expect(page.getByRole('status')).toContainText(`We will email ${email}`);

      await page.reload();
      await waitForApp(page);
      await page.getByLabel('Email address').fill(email.toUpperCase());
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      await expect(page.getByRole('status')).toContainText('is already on the waitlist');
    },
  );
});

test.describe('ways in', () => {
  const APPLICANT = 'Create an applicant account';
  const INSTITUTION = 'Register your institution';

  // That every public page has it is checked with each page above.
  test("the header's Sign in leads to /login", async ({ page }) => {
    await page.goto(PUBLIC_PAGES.at(-1)!.path);
    await waitForApp(page);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  });

  test(
    'the landing, student and institution pages lead to both sign-ups, as plain links without JavaScript',
    { tag: '@desktop-only' },
    async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      for (const path of ['/', '/about/student', '/about/partner']) {
        await page.goto(path);
        const main = page.getByRole('main');
        await expect(main.getByRole('link', { name: APPLICANT }), path).toHaveAttribute('href', '/signup/live');
        await expect(main.getByRole('link', { name: INSTITUTION }), path).toHaveAttribute('href', '/signup/partner');
        await expect(page.getByRole('link', { name: 'Go to my dashboard' })).toBeHidden();
      }
      await page.getByRole('main').getByRole('link', { name: INSTITUTION }).click();
      await expect(page).toHaveURL(/\/signup\/partner$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Register your institution');
      await page.goto('/about/student');
      await page.getByRole('main').getByRole('link', { name: APPLICANT }).click();
      await expect(page).toHaveURL(/\/signup\/live$/);
      await page.goto('/');
      await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await context.close();
    },
  );

  test("the landing page's call leads to applicant sign-up", async ({ page }) => {
    await page.goto('/');
    await waitForApp(page);
    await page.getByRole('main').getByRole('link', { name: APPLICANT }).click();
    await expect(page).toHaveURL(/\/signup\/live$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your applicant account');
  });

  test('the waitlist confirmation leads to both sign-ups', async ({ page }) => {
    await page.goto('/signup');
    await waitForApp(page);
    await expect(page.getByRole('main').getByRole('link', { name: APPLICANT })).toHaveCount(0);
    await page
      .getByLabel('Email address')
      .fill(`e2e-ways-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`);
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await expect(page.getByRole('status')).toContainText('You are on the list');
    await expect(page.getByText('Ready to start now?')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: INSTITUTION })).toHaveAttribute(
      'href',
      '/signup/partner',
    );
    await page.getByRole('main').getByRole('link', { name: APPLICANT }).click();
    await expect(page).toHaveURL(/\/signup\/live$/);
  });

  for (const { role, email, home, signIn } of [
    { role: 'student', email: 'demo.student@kaminuza.example', home: '/home', signIn: '/api/v1/auth/sign-in' },
    {
      role: 'staff',
      email: 'demo.staff@kaminuza.example',
      home: '/partner/dashboard',
      signIn: '/api/v1/auth/sign-in',
    },
    {
      role: 'admin',
      email: 'demo.admin@kaminuza.example',
      home: '/admin/dashboard',
      signIn: '/api/v1/auth/sign-in/admin',
    },
  ]) {
    test(
      `signed in as ${role}, the public pages offer Go to my dashboard instead`,
      { tag: '@desktop-only' },
      async ({ page, baseURL }) => {
        const signedIn = await page.request.post(signIn, {
          headers: { origin: baseURL! },
          data: { email, password: 'Kaminuza#2025' },
        });
        expect(signedIn.status(), await signedIn.text()).toBe(200);
        // A static page (the enhancement module reads the session) and a hydrated one (the app does).
        for (const path of ['/', '/about/partner', '/waitlist']) {
          await page.goto(path);
          await waitForApp(page);
          const header = page.getByRole('banner');
          await expect(header.getByRole('link', { name: 'Go to my dashboard' }), path).toHaveAttribute('href', home);
          await expect(header.getByRole('link', { name: 'Sign in' }), path).toBeHidden();
          await expect(header.getByRole('link', { name: 'Get started' }), path).toBeHidden();
          if (path !== '/waitlist') {
            const main = page.getByRole('main');
            await expect(main.getByRole('link', { name: 'Go to my dashboard' }), path).toHaveAttribute('href', home);
            await expect(main.getByRole('link', { name: APPLICANT }), path).toBeHidden();
            await expect(main.getByRole('link', { name: INSTITUTION }), path).toBeHidden();
          }
        }
        await page.goto('/about/student');
        await waitForApp(page);
        await page.getByRole('banner').getByRole('link', { name: 'Go to my dashboard' }).click();
        await expect(page).toHaveURL(new RegExp(`${home}$`));
      },
    );
  }
});
