import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import { signInNewStudent } from './students.ts';

test('shots @desktop-only', async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signInNewStudent(page, request, baseURL!);
  await page.goto('/application');
  await page.waitForTimeout(3000);
  console.log('url', page.url(), await page.evaluate(async () => { const r = await navigator.serviceWorker.getRegistration(); return [r?.active?.state, r?.installing?.state, r?.waiting?.state, !!navigator.serviceWorker.controller]; }));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  for (const lang of ['en', 'fr', 'rw']) {
    for (const theme of ['light', 'dark']) {
      await context.setOffline(false);
      await page.evaluate(([l, t]) => { localStorage.setItem('i18nextLng', l!); localStorage.setItem('kaminuza.theme', 'system'); }, [lang, theme]);
      await page.emulateMedia({ colorScheme: theme as 'light' | 'dark' });
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await context.setOffline(true);
      await page.reload();
      await page.getByTestId('cached-notice').waitFor();
      await page.evaluate(() => {
        const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt: async () => {}, userChoice: Promise.resolve({ outcome: 'dismissed' }) });
        window.dispatchEvent(event);
      });
      console.log('online?', await page.evaluate(() => navigator.onLine), await page.getByText(/offline|hors ligne|interineti/).count(), await page.locator('#root > *').count());
      await page.screenshot({ path: `/tmp/pwa-shots/offline-${lang}-${theme}.png`, fullPage: true });
    }
  }
  const cdp = await context.newCDPSession(page);
  console.log('installability', JSON.stringify(await cdp.send('Page.getInstallabilityErrors')));
  console.log('manifest errors', JSON.stringify((await cdp.send('Page.getAppManifest')).errors));
  // A new release: the worker file changes, the browser finds it, it waits for the person.
  await context.setOffline(false);
  const file = new URL('../apps/web/dist/sw.js', import.meta.url);
  const original = readFileSync(file, 'utf8');
  try {
    writeFileSync(file, `${original}\n// next release`);
    await page.evaluate(() => { localStorage.setItem('i18nextLng', 'en'); localStorage.setItem('kaminuza.theme', 'light'); });
    await page.reload();
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect(page.getByText('A new version of Kaminuza is ready.')).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: `/tmp/pwa-shots/update-en-light.png` });
    const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForLoadState('load');
    await expect(page.getByText('A new version of Kaminuza is ready.')).toHaveCount(0);
    console.log('controller after refresh', before, await page.evaluate(() => navigator.serviceWorker.controller?.state));
  } finally {
    writeFileSync(file, original);
  }
});
