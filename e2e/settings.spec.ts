import type { APIRequestContext, Browser, Page } from '@playwright/test';
import {
  chooseLanguage,
  expect,
  expectNoAxeViolations,
  openMenuIfCollapsed,
  recordRenderEvent,
  test,
  waitForApp,
} from './fixtures.ts';
import { signIn, uniqueEmail } from './institutions.ts';
import { latestEmail, linkIn } from './mailbox.ts';

const PASSWORD = 'Sunrise#2026';
const NEW_PASSWORD = 'Moonrise#2027';

/** The onboarding steps' answers: settings are reached once a student has finished onboarding. */
const ONBOARDING = [
  { language: 'en' },
  { first_name: 'Aline', last_name: 'Uwase', preferred_name: '' },
  { date_of_birth: '2006-04-12', gender: 'female', nationality: 'RW' },
  { phone_country: 'RW', phone: '0788 123 456' },
  { country_of_residence: 'RW', address: 'KN 5 Road, Kiyovu', city: 'Kigali', postal_code: '' },
  {
    education_level: 'high_school',
    school: {
      name: 'Lycée de Kigali',
      city: 'Kigali',
      state_province: 'Kigali',
      country: 'RW',
      levels_offered: ['secondary'],
    },
  },
  {},
];

async function ok(response: Awaited<ReturnType<APIRequestContext['post']>>) {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
}

/** A new student, signed up through the api, verified from the mailbox (which signs this page in) and onboarded. */
async function signedInStudent(page: Page, request: APIRequestContext, baseURL: string) {
  const email = uniqueEmail('settings');
  const headers = { origin: baseURL };
  await ok(
    await request.post('/api/v1/auth/sign-up/student', {
      headers,
      data: {
        email,
        password: PASSWORD,
        education_level: 'high_school',
        gender: 'female',
        first_name: 'Aline',
        last_name: 'Uwase',
        date_of_birth: '2006-04-12',
        phone: '+250788123456',
        city: 'Kigali',
        country: 'RW',
        accept_terms: true,
      },
    }),
  );
  const mail = await latestEmail(request, email, /verif/i);
  await page.goto(linkIn(mail.text, '/auth/verify-email'));
  await expect(page).toHaveURL(/\/onboarding\/student$/);
  for (const [step, answers] of ONBOARDING.entries()) {
    await ok(await page.request.put(`/api/v1/students/me/onboarding/steps/${step}`, { headers, data: answers }));
  }
  await ok(await page.request.post('/api/v1/students/me/onboarding/complete', { headers }));
  return email;
}

/** Another device: a browser of its own, sized like the project's. */
async function otherDevice(browser: Browser, baseURL: string) {
  const { viewport, isMobile, hasTouch } = test.info().project.use;
  const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch });
  const page = await context.newPage();
  await recordRenderEvent(page);
  return { context, page };
}

async function openSettings(page: Page, name: 'Settings' | 'Paramètres' = 'Settings') {
  // On phones Settings is a secondary link, in the header's menu.
  await openMenuIfCollapsed(page);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

async function expectAccessibleAndFitting(page: Page) {
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test('a student sets theme and language, changes the password and a notification preference, and all of it sticks', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // Sign-up, an email, two devices and two sign-ins: give it room on a loaded two-core machine.
  test.slow();
  const email = await signedInStudent(page, request, baseURL!);
  await page.goto('/home');
  await waitForApp(page);
  await openSettings(page);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('switch', { name: 'Reminders', exact: true })).toBeChecked();
  await expectAccessibleAndFitting(page);

  // Theme and language apply at once and are saved to the account.
  const appearance = page.getByRole('region', { name: 'Appearance' });
  await appearance.getByRole('radio', { name: 'Dark' }).check();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(appearance.getByRole('status')).toHaveText('Saved to your account.');
  await page.getByRole('region', { name: 'Language' }).getByRole('radio', { name: 'Français' }).check();
  await expect(page.getByRole('heading', { level: 1, name: 'Paramètres' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Langue' }).getByRole('status')).toHaveText(
    'Enregistré dans votre compte.',
  );
  await expectAccessibleAndFitting(page);

  await page.reload();
  await waitForApp(page);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('heading', { level: 1, name: 'Paramètres' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Sombre' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Français' })).toBeChecked();

  // The theme follows the account to another device, whose session the password change then ends.
  const device = await otherDevice(browser, baseURL!);
  await signIn(device.page, email, PASSWORD);
  await expect(device.page).toHaveURL(/\/home$/);
  await expect(device.page.locator('html')).toHaveClass(/dark/);

  // A wrong current password is refused in the spec's words; the right one changes it.
  const password = page.getByRole('region', { name: 'Mot de passe' });
  await password.getByLabel('Mot de passe actuel').fill('Wrong#Passw0rd');
  await password.getByLabel('Nouveau mot de passe', { exact: true }).fill(NEW_PASSWORD);
  await password.getByLabel('Confirmez le nouveau mot de passe').fill(NEW_PASSWORD);
  await password.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(password.getByRole('alert')).toHaveText('Échec de la modification du mot de passe');
  await expect(password.getByText('Le mot de passe actuel est incorrect.')).toBeVisible();
  await password.getByLabel('Mot de passe actuel').fill(PASSWORD);
  await password.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(password.getByRole('status')).toHaveText(
    'Votre mot de passe a été modifié. Vos autres appareils ont été déconnectés.',
  );
  await expect(password.getByLabel('Mot de passe actuel')).toHaveValue('');
  await expectAccessibleAndFitting(page);
  // This browser stays signed in; the other device is signed out.
  await expect((await page.request.get('/api/v1/me/settings')).status()).toBe(200);
  await expect((await device.page.request.get('/api/v1/me/settings')).status()).toBe(401);
  await device.context.close();

  // Back to English with the header's switcher, which saves to the account too; then out and in again.
  await chooseLanguage(page, 'English');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'English' })).toBeChecked();
  await expect
    .poll(
      async () =>
        ((await (await page.request.get('/api/v1/me/settings')).json()) as { data: { language: string } }).data
          .language,
    )
    .toBe('en');
  await openMenuIfCollapsed(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.locator('html')).toHaveClass(/dark/);

  // A notification preference turned off stays off.
  await openSettings(page);
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/api/v1/me/settings') && response.request().method() === 'PATCH',
  );
  await page.getByRole('switch', { name: 'Reminders', exact: true }).uncheck();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await waitForApp(page);
  await expect(page.getByRole('switch', { name: 'Reminders', exact: true })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Application updates' })).toBeChecked();
});
