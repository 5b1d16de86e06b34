import { samplePng } from '../apps/api/src/seed/sample-files.ts';
import { expect, expectNoAxeViolations, test, waitForApp } from './fixtures.ts';
import { signInNewInstitution } from './staff.ts';

/** The institution's logo lives on its own image host; the test stands in for that host and counts its requests. */
const LOGO_URL = 'https://images.lake-kivu.example/logo.png';

test(
  'with the browser saving data, a university’s logo is not downloaded until “Show image” is pressed',
  { tag: '@desktop-only' },
  async ({ page, request, baseURL }) => {
    const { partnerId, name } = await signInNewInstitution(page, request);
    const origin = { origin: baseURL! };
    const profile = await page.request.patch(`/api/v1/partners/${partnerId}/profile`, {
      headers: origin,
      data: { logo_url: LOGO_URL, published: true },
    });
    expect(profile.status()).toBe(200);
    await page.context().clearCookies();
    const student = await page.request.post('/api/v1/auth/sign-in', {
      headers: origin,
      data: { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' },
    });
    expect(student.ok()).toBe(true);

    let logoRequests = 0;
    await page.route(LOGO_URL, (route) => {
      logoRequests += 1;
      return route.fulfill({ contentType: 'image/png', body: samplePng(48, [13, 148, 136]) });
    });
    // A phone in data-saver mode: the hint on every request, and the Network Information API saying so.
    await page.setExtraHTTPHeaders({ 'Save-Data': 'on' });
    await page.addInitScript(() => {
      const connection = Object.assign(new EventTarget(), { saveData: true, effectiveType: '4g' });
      Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection });
    });

    await page.goto(`/partners?q=${encodeURIComponent(name)}`);
    await waitForApp(page);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
    await expect(card).toBeVisible();
    await expect(card.locator('img')).toHaveCount(0);
    const show = card.getByRole('button', { name: `Show image: logo of ${name}` });
    await expect(show).toHaveText('Show image');
    expect(logoRequests).toBe(0);
    await expectNoAxeViolations(page);

    await show.click();
    const logo = card.getByRole('img', { name: `Logo of ${name}` });
    await expect(logo).toBeVisible();
    await expect(logo).toBeFocused();
    // Shown is not yet decoded: the image has loaded once its natural size is known.
    await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(48);
    expect(logoRequests).toBe(1);

    // The setting says why the mode is on, and turning it off brings logos back at once.
    await page.goto('/settings');
    await waitForApp(page);
    const setting = page.getByRole('region', { name: 'Use less data' });
    await expect(setting.getByRole('radio', { name: 'Automatic' })).toBeChecked();
    await expect(setting.getByRole('status')).toHaveText('Low-data mode is on because your browser asks to save data.');
    await setting.getByRole('radio', { name: 'Off' }).check();
    await expect(setting.getByRole('status')).toHaveText('Low-data mode is off.');
    await page.goto(`/partners?q=${encodeURIComponent(name)}`);
    await expect(card.locator('img')).toBeVisible();
    await expect(card.getByRole('button', { name: /Show image/ })).toHaveCount(0);
  },
);
