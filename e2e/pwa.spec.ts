import { expect, test } from './fixtures.ts';
import { signInNewStudent } from './students.ts';

// The suite blocks service workers (playwright.config.ts); this test is about one.
test.use({ serviceWorkers: 'allow' });

test('the installable app: its worker controls the page, Chromium finds it installable, and the applications list opens offline as of its last fetch @desktop-only', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await signInNewStudent(page, request, baseURL!);

  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const installable = (await manifest.json()) as { icons: Array<{ src: string; sizes: string; purpose: string }> };
  expect(installable).toMatchObject({ name: 'Kaminuza', start_url: '/home', scope: '/', display: 'standalone' });
  for (const size of ['192x192', '512x512']) {
    const icon = installable.icons.find((entry) => entry.sizes === size && entry.purpose === 'any');
    const png = await page.request.get(icon!.src);
    expect(png.headers()['content-type']).toBe('image/png');
  }
  expect(installable.icons.some((entry) => entry.purpose === 'maskable')).toBe(true);

  await page.goto('/application');
  const title = page.getByRole('heading', { level: 1, name: 'Applications' });
  await expect(title).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL.endsWith('/sw.js'));
  // Chromium's own installability checks (those Lighthouse reports): the only objection left is that a
  // test browser context is a private window, where nothing installs.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((error) => error.errorId)).toEqual(['in-incognito']);
  await cdp.detach();
  // Read once under the worker, which keeps the answer for offline use. The worker stores it after the
  // page has it (workbox's cache write is not awaited by the response): going offline before it is stored
  // would test a race, not the app.
  await page.reload();
  await expect(title).toBeVisible();
  await expect(page.getByTestId('cached-notice')).toHaveCount(0);
  await page.waitForFunction(async () => {
    const reads = await caches.open('kaminuza-reads');
    return (await reads.keys()).some((request) => new URL(request.url).pathname === '/api/v1/applications');
  });

  await context.setOffline(true);
  await page.reload();
  await expect(title).toBeVisible();
  // Chromium 150 answers navigator.onLine true in a document its worker served while the context is
  // emulated offline; applied again, the emulation reaches the page (an 'offline' event, onLine false),
  // as a real loss of connection does.
  if (await page.evaluate(() => navigator.onLine)) {
    await context.setOffline(false);
    await context.setOffline(true);
  }
  await expect(page.getByText(/^You are offline\./)).toBeVisible();
  await expect(page.getByTestId('cached-notice')).toContainText(/^Saved copy, as of .+\d/);

  await context.setOffline(false);
  await page.reload();
  await expect(title).toBeVisible();
  await expect(page.getByText(/^You are offline\./)).toHaveCount(0);
  await expect(page.getByTestId('cached-notice')).toHaveCount(0);
});
