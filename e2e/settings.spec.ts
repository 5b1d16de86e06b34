import type { Page } from '@playwright/test';
import {
  apiData,
  chooseLanguage,
  expect,
  expectAccessibleAndFitting,
  openMenuIfCollapsed,
  ownBrowser,
  test,
  waitForApp,
} from './fixtures.ts';
import { PASSWORD, signIn } from './institutions.ts';
import { signInNewInstitution } from './staff.ts';
import { signInNewStudent, STUDENT_PASSWORD } from './students.ts';

const NEW_PASSWORD = 'Moonrise#2027';

/** The language saved to the signed-in account. */
async function savedLanguage(page: Page): Promise<string> {
  return (await apiData<{ language: string }>(await page.request.get('/api/v1/me/settings'))).language;
}

async function openSettings(page: Page, name: 'Settings' | 'Paramètres' = 'Settings') {
  // On phones Settings is a secondary link, in the header's menu.
  await openMenuIfCollapsed(page);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

test('a student sets theme and language, changes the password and a notification preference, and all of it sticks', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // Sign-up, an email, two devices and two sign-ins: give it room on a loaded two-core machine.
  test.slow();
  const email = await signInNewStudent(page, request, baseURL!);
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
  const device = await ownBrowser(browser, baseURL!);
  await signIn(device, email, STUDENT_PASSWORD);
  await expect(device).toHaveURL(/\/home$/);
  await expect(device.locator('html')).toHaveClass(/dark/);

  // A wrong current password is refused in the spec's words; the right one changes it.
  const password = page.getByRole('region', { name: 'Mot de passe' });
  await password.getByLabel('Mot de passe actuel').fill('Wrong#Passw0rd');
  await password.getByLabel('Nouveau mot de passe', { exact: true }).fill(NEW_PASSWORD);
  await password.getByLabel('Confirmez le nouveau mot de passe').fill(NEW_PASSWORD);
  await password.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(password.getByRole('alert')).toHaveText('Échec de la modification du mot de passe');
  await expect(password.getByText('Le mot de passe actuel est incorrect.')).toBeVisible();
  await password.getByLabel('Mot de passe actuel').fill(STUDENT_PASSWORD);
  await password.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(password.getByRole('status')).toHaveText(
    'Votre mot de passe a été modifié. Vos autres appareils ont été déconnectés.',
  );
  await expect(password.getByLabel('Mot de passe actuel')).toHaveValue('');
  await expectAccessibleAndFitting(page);
  // This browser stays signed in; the other device is signed out.
  await expect((await page.request.get('/api/v1/me/settings')).status()).toBe(200);
  await expect((await device.request.get('/api/v1/me/settings')).status()).toBe(401);
  await device.context().close();

  // Back to English with the header's switcher, which saves to the account too; then out and in again.
  await chooseLanguage(page, 'English');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'English' })).toBeChecked();
  await expect.poll(() => savedLanguage(page)).toBe('en');
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
  // The switch moves once the optimistic update lands (a moment after the click): wait for it, not at once.
  const reminders = page.getByRole('switch', { name: 'Reminders', exact: true });
  await reminders.click();
  await expect(reminders).not.toBeChecked();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await waitForApp(page);
  await expect(page.getByRole('switch', { name: 'Reminders', exact: true })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Application updates' })).toBeChecked();
});

test('a staff member and an admin reach the same settings from their navigation and change them', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  // A member of a new institution: My account, in the institution area's navigation.
  const member = await signInNewInstitution(page, request);
  await page.goto('/partner/dashboard');
  await waitForApp(page);
  await openMenuIfCollapsed(page);
  await page.getByRole('link', { name: 'My account', exact: true }).click();
  await expect(page).toHaveURL(/\/partner\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  // Their account is closed by their institution, not from here; their data can still be downloaded.
  const data = page.getByRole('region', { name: 'Your data' });
  await expect(data.getByRole('link', { name: 'Download my data' })).toBeVisible();
  await expect(data.getByRole('button', { name: 'Delete my account' })).toHaveCount(0);
  // Only the switches that ever send a staff member something: no draft reminders, no pushes.
  const notifications = page.getByRole('region', { name: 'Notification preferences' });
  await expect(notifications.getByRole('switch', { name: 'Application updates' })).toBeVisible();
  await expect(notifications.getByText('Messages from applicants you have not read')).toBeVisible();
  await expect(notifications.getByRole('switch')).toHaveCount(2);
  await expect(notifications.getByRole('switch', { name: 'Reminders' })).toHaveCount(0);
  await expect(notifications.getByRole('group', { name: 'Push notifications' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Push notifications on this device' })).toHaveCount(0);
  await expectAccessibleAndFitting(page);

  const password = page.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password').fill(PASSWORD);
  await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await password.getByLabel('Confirm the new password').fill(NEW_PASSWORD);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('status')).toHaveText(
    'Your password has been changed. Your other devices have been signed out.',
  );
  // Kinyarwanda for the interface and for the emails the member is sent from now on.
  await page.getByRole('region', { name: 'Language' }).getByRole('radio', { name: 'Kinyarwanda' }).check();
  await expect(page.getByRole('heading', { level: 1, name: 'Igenamiterere' })).toBeVisible();
  await expect.poll(() => savedLanguage(page)).toBe('rw');
  await expectAccessibleAndFitting(page);
  await openMenuIfCollapsed(page);
  await page.getByRole('button', { name: 'Sohoka' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await chooseLanguage(page, 'English');
  await signIn(page, member.email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/partner\//);

  // The admin: Settings in the admin area's navigation; the theme is saved to their account.
  const admin = await ownBrowser(browser, baseURL!);
  await signIn(admin, 'demo.admin@kaminuza.example', 'Kaminuza#2025', '/login/admin');
  await expect(admin).toHaveURL(/\/admin\/dashboard$/);
  await openSettings(admin);
  await expect(admin).toHaveURL(/\/admin\/settings$/);
  const appearance = admin.getByRole('region', { name: 'Appearance' });
  await appearance.getByRole('radio', { name: 'Dark' }).check();
  await expect(admin.locator('html')).toHaveClass(/dark/);
  await expect(appearance.getByRole('status')).toHaveText('Saved to your account.');
  await expectAccessibleAndFitting(admin);
  // Back to the system theme, so the demo admin's other tests see what they expect.
  await appearance.getByRole('radio', { name: 'System' }).check();
  await expect(appearance.getByRole('status')).toHaveText('Saved to your account.');
  await admin.context().close();
});
