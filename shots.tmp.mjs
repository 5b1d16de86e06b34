import { chromium } from '@playwright/test';
const base = 'http://localhost:4743';
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const who of ['student', 'admin']) for (const lang of ['en', 'fr', 'rw']) for (const theme of ['light', 'dark']) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, colorScheme: theme });
  const page = await context.newPage();
  await page.addInitScript(([lang, theme]) => {
    localStorage.setItem('kaminuza.low-data', 'on');
    localStorage.setItem('kaminuza.theme', theme);
    localStorage.setItem('i18nextLng', lang);
  }, [lang, theme]);
  await context.addCookies([{ name: 'i18next', value: lang, url: base }]);
  await page.route('**/api/v1/catalogue/universities**', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const item of body.data.items ?? []) item.images.logo_url = 'https://images.example.org/logo.png';
    await route.fulfill({ response, json: body });
  });
  await page.route('https://images.example.org/**', (route) => route.fulfill({ contentType: 'image/png', body: png }));
  const signIn = who === 'student'
    ? await page.request.post(`${base}/api/v1/auth/sign-in`, { headers: { origin: base }, data: { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' } })
    : await page.request.post(`${base}/api/v1/auth/sign-in/admin`, { headers: { origin: base }, data: { email: 'demo.admin@kaminuza.example', password: 'Kaminuza#2025' } });
  if (!signIn.ok()) throw new Error(await signIn.text());
  if (who === 'student') {
    await page.goto(`${base}/partners`);
    await page.waitForSelector('li button');
    await page.screenshot({ path: `/tmp/lowdata-shots/partners-${lang}-${theme}.png` });
    await page.locator('li button').first().click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `/tmp/lowdata-shots/partners-shown-${lang}-${theme}.png` });
    await page.goto(`${base}/settings`);
    const section = page.locator('section section').nth(2);
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `/tmp/lowdata-shots/settings-${lang}-${theme}.png` });
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    if (sw > 360) console.log('overflow settings', lang, theme, sw);
  } else {
    await page.goto(`${base}/admin/dashboard`);
    await page.waitForSelector('figure table');
    await page.locator('figure').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/lowdata-shots/admin-${lang}-${theme}.png`, fullPage: false });
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    if (sw > 360) console.log('overflow admin', lang, theme, sw);
  }
  await context.close();
}
await browser.close();
