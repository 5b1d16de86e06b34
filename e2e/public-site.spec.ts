import { PUBLIC_PAGES, chooseLanguage, expect, expectNoAxeViolations, test, waitForApp } from './fixtures.ts';

test.describe('public pages', () => {
  for (const { path, name } of PUBLIC_PAGES) {
    test(`${name} (${path}) renders, fits the screen and passes axe`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page).toHaveTitle(/Kaminuza/);
      await expect(page.getByRole('contentinfo')).toContainText('© 2025 Kaminuza');
      await waitForApp(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }

  test('public pages arrive as HTML before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/about/us');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/programs');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await context.close();
  });

  test('the landing page shows the demo catalogue from the API', async ({ page }) => {
    await page.goto('/');
    await waitForApp(page);
    await expect(page.getByText('University of Rwanda').or(page.getByRole('listitem').filter({ hasText: /University|Université/ })).first()).toBeVisible();
  });
});

test.describe('routing', () => {
  test('/signup redirects to /waitlist keeping the query string', async ({ page }) => {
    await page.goto('/signup?ref=friend42&utm_source=sms');
    await expect(page).toHaveURL(/\/waitlist\?ref=friend42&utm_source=sms$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Join the waitlist');
  });

  for (const [from, to] of [
    ['/about', '/about/us'],
    ['/apply-to-university', '/about/student'],
    ['/partner', '/about/partner'],
  ] as const) {
    test(`${from} redirects to ${to}`, async ({ page }) => {
      await page.goto(`${from}?x=1`);
      await expect(page).toHaveURL(new RegExp(`${to}\\?x=1$`));
    });
  }

  test('the Get started link goes to the waitlist inside the app', async ({ page }) => {
    await page.goto('/');
    await waitForApp(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('link', { name: 'Get started' }).first().click();
    await expect(page).toHaveURL(/\/waitlist$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Join the waitlist');
  });

  test('unknown paths show the not-found page with a 404', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await waitForApp(page);
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a route change scrolls to the top', async ({ page }) => {
    await page.goto('/');
    await waitForApp(page);
    const footer = page.getByRole('contentinfo');
    await footer.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await footer.getByRole('link', { name: 'Help' }).click();
    await expect(page).toHaveURL(/\/help$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('signed-in areas send visitors without a session to /login', async ({ page }) => {
    for (const path of ['/home', '/partners', '/application/form', '/admin/dashboard', '/partner/settings', '/dashboard']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });
});

test.describe('language and theme', () => {
  test('switching language translates the page, sets <html lang> and survives a reload', async ({ page }) => {
    await page.goto('/about/us');
    await waitForApp(page);
    await chooseLanguage(page, 'Français');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('contentinfo')).toContainText('Tous droits réservés');
    await page.reload();
    // The server now sends the French page itself (no English flash).
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('contentinfo')).toContainText('Tous droits réservés');
    await waitForApp(page);
    await expectNoAxeViolations(page);

    await chooseLanguage(page, 'Kinyarwanda');
    await expect(page.locator('html')).toHaveAttribute('lang', 'rw');
    await expect(page.getByRole('contentinfo')).toContainText('Uburenganzira bwose burasigasiwe');
    await expect(page).toHaveTitle(/Abo turi bo/);
  });

  test('a browser in French gets French pages first', async ({ browser }) => {
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
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('combobox', { name: 'Theme' }).first().selectOption('dark');
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.reload({ waitUntil: 'commit' });
    await page.waitForSelector('html.dark', { state: 'attached' });
    expect(await page.evaluate(() => document.readyState !== 'complete' || document.documentElement.classList.contains('dark'))).toBe(true);
    await waitForApp(page);
    await expectNoAxeViolations(page);
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('combobox', { name: 'Theme' }).first().selectOption('light');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
  });
});

test.describe('error screen', () => {
  test('a screen that fails to load shows the error screen, whose Copy error shows Copied! for 2 s', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await waitForApp(page);
    await page.route(/\/assets\/help-page-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('contentinfo').getByRole('link', { name: 'Help' }).click();
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    await expect(page.getByText('We encountered an unexpected error. Please try reloading the page.')).toBeVisible();
    await page.getByText('Error details').click();
    await page.getByRole('button', { name: 'Copy error' }).click();
    await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/help-page|dynamically imported module|Failed to fetch/i);
    await expect(page.getByRole('button', { name: 'Copy error' })).toBeVisible({ timeout: 3_000 });
    await page.unroute(/\/assets\/help-page-[^/]+\.js$/);
    await page.getByRole('button', { name: 'Reload page' }).click();
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Something went wrong');
  });
});

test.describe('waitlist', () => {
  test('a visitor joins once; joining again says they are already on the list', async ({ page }) => {
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
  });
});
