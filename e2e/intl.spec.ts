import type { Page } from '@playwright/test';
import { apiData, expect, ownBrowser, test, waitForApp } from './fixtures.ts';
import { setUpReview, signInReadyInstitution, submitApplication } from './staff.ts';

/*
 * Dates, numbers, currencies, countries and time zones in the reader's language (issue 19, item 8).
 * Chromium's own data has no Kinyarwanda at all: `Intl` there silently writes rw dates as English ones.
 * The expected texts come from Node's full ICU (the same CLDR data the app ships for rw); where CLDR
 * has no Kinyarwanda name (most countries, every currency) the English one is expected.
 */

const DEMO_STUDENT = { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' };

/** A moment's calendar day, as the reader's language writes it (the browser runs in the runner's zone). */
const rwDay = (date: Date) => new Intl.DateTimeFormat('rw', { dateStyle: 'medium' }).format(date);
/** CLDR's Kinyarwanda name if it has one, else the English name. */
function rwName(type: 'region' | 'currency', code: string): string {
  return (
    new Intl.DisplayNames(['rw'], { type, fallback: 'none' }).of(code) ??
    new Intl.DisplayNames(['en'], { type }).of(code)!
  );
}

async function useLanguage(page: Page, language: 'fr' | 'rw', baseURL: string) {
  await page.context().addCookies([{ name: 'i18next', value: language, url: baseURL }]);
}

test.describe('formats in the reader’s language', () => {
  test('in Kinyarwanda: a deadline on Explore, and a country select on sign-up', async ({ page, baseURL }) => {
    await useLanguage(page, 'rw', baseURL!);
    await page.goto('/login');
    await apiData(
      await page.request.post('/api/v1/auth/sign-in', { headers: { origin: baseURL! }, data: DEMO_STUDENT }),
    );
    const result = await apiData<{ items: Array<{ name: string; application_deadline: string | null }> }>(
      await page.request.get('/api/v1/catalogue/universities?q=Makerere'),
    );
    const makerere = result.items.find((item) => item.name === 'Makerere University')!;
    expect(makerere.application_deadline).toBeTruthy();
    const deadline = new Intl.DateTimeFormat('rw', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${makerere.application_deadline}T00:00:00Z`),
    );
    expect(deadline).not.toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);

    await page.goto('/partners?q=Makerere');
    const card = page.getByRole('listitem').filter({ hasText: 'Makerere University' }).first();
    await expect(card).toContainText(deadline);

    /*
     * A prerendered page: the country list is filled once hydrated (Node's and the browser's region names
     * differ in places), and the browser names them in Kinyarwanda as Node does.
     */
    await page.context().clearCookies();
    await useLanguage(page, 'rw', baseURL!);
    await page.goto('/signup/live');
    await waitForApp(page);
    const country = page.getByRole('combobox', { name: /^Igihugu utuyemo/ });
    await expect(country.locator('option[value="RW"]')).toHaveText('U Rwanda');
    await expect(country.locator('option[value="ET"]')).toHaveText(rwName('region', 'ET'));
  });

  test(
    'in Kinyarwanda: the staff queue, the decision page and the currency select; in French: the time zone select',
    { tag: '@desktop-only' },
    async ({ page, request, browser, baseURL }) => {
      test.slow();
      await useLanguage(page, 'rw', baseURL!);
      const institution = await signInReadyInstitution(page, request);
      await setUpReview(
        page,
        institution,
        { letter: 'Dear {student_name},', rubric: [{ id: 'academic', name: 'Academic record', weight: 1 }] },
        baseURL!,
      );
      const student = await ownBrowser(browser, baseURL);
      await useLanguage(student, 'rw', baseURL!);
      await student.goto('/login');
      await apiData(
        await student.request.post('/api/v1/auth/sign-in', { headers: { origin: baseURL! }, data: DEMO_STUDENT }),
      );
      const { id, reference } = await submitApplication(student, institution, baseURL!);
      const today = rwDay(new Date());

      // The staff queue: the submission's day.
      await page.goto('/partner/applications');
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: reference }) });
      await expect(row).toContainText(today);

      // The applicant's decision page: the day it was released.
      const base = `/api/v1/partners/${institution.partnerId}`;
      const headers = { origin: baseURL! };
      await apiData(
        await page.request.put(`${base}/review/submissions/${id}/decision`, { headers, data: { state: 'accepted' } }),
      );
      await apiData(
        await page.request.post(`${base}/decisions/release`, { headers, data: { submission_ids: [id], when: 'now' } }),
      );
      await student.goto(`/partners/${institution.partnerId}/application/decision`);
      await expect(student.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(student.locator('main')).toContainText(today);
      await expect(student.locator('main')).not.toContainText(
        new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date()),
      );

      // The currency select: CLDR has no Kinyarwanda currency names, so they are English.
      await page.goto('/partner/settings');
      const currency = page.getByRole('combobox', { name: /^Ifaranga ry’ibanze/ });
      await expect(currency.locator('option[value="RWF"]')).toHaveText(`RWF — ${rwName('currency', 'RWF')}`);

      // The time zone select in French names the zones instead of showing their identifiers.
      await page.context().clearCookies({ name: 'i18next' });
      await page.evaluate(() => localStorage.clear());
      await useLanguage(page, 'fr', baseURL!);
      await page.reload();
      const zone = page.getByRole('combobox', { name: /^Fuseau horaire/ });
      await expect(zone.locator('option[value="Africa/Kigali"]')).toHaveText(
        'Kigali — heure normale d’Afrique centrale',
      );
      await expect(zone.locator('option[value="Europe/Paris"]')).toHaveText(
        // Chromium's French data has the standard name where Node's has the generic one.
        /^Paris — heure (normale )?d’Europe centrale$/,
      );
      await expect(zone.locator('option[value="UTC"]')).toHaveText('temps universel coordonné');
    },
  );
});
