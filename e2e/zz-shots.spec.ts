import { expect, test, expectAccessibleAndFitting } from './fixtures.ts';
import { signInNewStudent } from './students.ts';

for (const language of ['en', 'fr', 'rw'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`shots ${language} ${theme}`, async ({ page, request, baseURL }) => {
      test.setTimeout(60_000);
      await page.emulateMedia({ colorScheme: theme });
      await page.context().addCookies([{ name: 'i18next', value: language, url: baseURL! }]);
      await signInNewStudent(page, request, baseURL!);
      await page.goto('/profile?tab=documents');
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      // An unfinished upload kept on the device, as a reload leaves it.
      await page.evaluate(async () => {
        const open = indexedDB.open('kaminuza', 1);
        await new Promise((resolve) => {
          open.onupgradeneeded = () => {
            open.result.createObjectStore('drafts', { keyPath: 'id' });
            open.result.createObjectStore('uploads', { keyPath: 'id' }).createIndex('by_owner', 'owner');
          };
          open.onsuccess = resolve;
        });
        const tx = open.result.transaction('uploads', 'readwrite');
        tx.objectStore('uploads').put({
          id: 'k1', owner: 'upload:passport', meta: {}, name: 'passport.pdf', type: 'application/pdf', size: 1000,
          file: new Blob([new Uint8Array(1000)], { type: 'application/pdf' }), upload_url: null, offset: 600, paused: true,
          created_at: new Date().toISOString(),
        });
        await new Promise((resolve) => (tx.oncomplete = resolve));
      });
      await page.reload();
      const row = (n: number) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) }).nth(n);
      await expect(row(4).getByText(/passport.pdf/).first()).toBeVisible();
      await expectAccessibleAndFitting(page);
      await page.screenshot({ path: `/tmp/ut/shots/${language}-${theme}-unfinished.png`, fullPage: true });

      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 100, downloadThroughput: 1e6, uploadThroughput: 200 * 1024 });
      await row(0).locator('input[type=file]').setInputFiles({ name: 'transcript.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n' + 'x'.repeat(2_000_000) + '\n%%EOF\n') });
      await expect.poll(async () => Number(await row(0).getByRole('progressbar').getAttribute('value')), { timeout: 15_000 }).toBeGreaterThan(5);
      await row(0).getByRole('button').first().click(); // Pause
      await row(0).screenshot({ path: `/tmp/ut/shots/${language}-${theme}-paused.png` });
      await row(0).getByRole('button').first().click(); // Resume
      await page.context().setOffline(true);
      await page.waitForTimeout(300);
      await expectAccessibleAndFitting(page);
      await row(0).screenshot({ path: `/tmp/ut/shots/${language}-${theme}-offline.png` });
      await page.context().setOffline(false);
    });
  }
}
