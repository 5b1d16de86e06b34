import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { chooseLanguage, expect, expectNoAxeViolations, test, waitForApp } from './fixtures.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { LABELS, PASSWORD, registerInstitution, signIn, uniqueEmail } from './institutions.ts';

async function expectNoHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test.describe('institution sign-up', () => {
  test.slow();

  test('from /about/partner: register, verify from the email, sign in, wait on the pending screen', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('registrar');
    await page.goto('/about/partner');
    await waitForApp(page);
    await page.getByRole('link', { name: 'Register your institution' }).click();
    await expect(page).toHaveURL(/\/signup\/partner$/);
    await waitForApp(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Register your institution');

    // The form explains its rules before anything is sent.
    await page.getByRole('button', { name: 'Register institution' }).click();
    await expect(page.getByText('Please fill in all required fields correctly')).toBeVisible();
    await expect(page.getByText('Institution name is required')).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoHorizontalScroll(page);

    // The join mode searches approved institutions by name.
    await page.getByRole('radio', { name: /Join an existing institution/ }).check();
    await page.getByLabel('Search institutions by name').fill('Rwanda');
    await expect(page.getByRole('radio', { name: /University of Rwanda/ })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('radio', { name: /Register a new institution/ }).check();

    await registerInstitution(page, email, LABELS.en);
    await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await expect(page.getByText(`We sent a verification link to ${email}`)).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoHorizontalScroll(page);

    // The emailed link verifies the address; the institution then waits for review.
    const mail = await latestEmail(request, email, /verif/i);
    await page.goto(linkIn(mail.text, '/auth/verify-email'));
    await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your institution is under review');

    // Signing in again lands on the same screen: the dashboard is not open until approval.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your institution is under review');
    await expectNoAxeViolations(page);
    await expectNoHorizontalScroll(page);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/signup/partner/pending');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('What happens next');
    await expect(page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('the sign-in page links to the institution sign-up', { tag: '@desktop-only' }, async ({ page }) => {
    await page.goto('/login');
    await waitForApp(page);
    await page.getByRole('link', { name: /Create an institution account/ }).click();
    await expect(page).toHaveURL(/\/signup\/partner$/);
  });

  test('in French: register and wait on the pending screen', { tag: '@desktop-only' }, async ({ page, request }) => {
    const email = uniqueEmail('registraire');
    await page.goto('/signup/partner');
    await waitForApp(page);
    await chooseLanguage(page, 'Français');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inscrire votre établissement');
    await registerInstitution(page, email, LABELS.fr);
    await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Consultez vos e-mails');
    await expectNoAxeViolations(page);

    const mail = await latestEmail(request, email, /Vérifiez/);
    await page.goto(linkIn(mail.text, '/auth/verify-email'));
    await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Votre établissement est en cours d’examen');
    await expect(page.getByRole('button', { name: 'Se déconnecter' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test(
    'in Kinyarwanda: the pending screen after sign-up and once signed in',
    { tag: '@phone-only' },
    async ({ page, request }) => {
      const email = uniqueEmail('umwanditsi');
      await page.goto('/signup/partner');
      await waitForApp(page);
      await registerInstitution(page, email, LABELS.en);
      await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
      await chooseLanguage(page, 'Kinyarwanda');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reba imeri yawe');
      await expect(page.getByRole('main').getByRole('link', { name: 'Injira', exact: true })).toBeVisible();
      await expectNoAxeViolations(page);

      const mail = await latestEmail(request, email, /verif/i);
      await page.goto(linkIn(mail.text, '/auth/verify-email'));
      await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ikigo cyawe kiri gusuzumwa');
      await expectNoAxeViolations(page);
    },
  );
});

test.describe('joining an existing institution', () => {
  test.slow();

  test('a person asks to join the demo institution, its administrator approves, the person reaches the dashboard', async ({
    page,
    request,
  }) => {
    // The demo staff member's institution, as its dashboard names it.
    await signIn(page, 'demo.staff@kaminuza.example', 'Kaminuza#2025');
    await expect(page).toHaveURL(/\/partner\/dashboard$/);
    await expect(page.getByRole('link', { name: 'Edit the profile' })).toBeVisible();
    // The overview, first on the dashboard, is headed by the institution's name.
    const overview = page.getByRole('heading', { level: 2 }).first();
    const institution = (await overview.textContent()) ?? '';
    expect(institution).not.toBe('');
    await page.context().clearCookies();

    const email = uniqueEmail('lecturer');
    await page.goto('/signup/partner');
    await waitForApp(page);
    await page.getByRole('radio', { name: /Join an existing institution/ }).check();
    await page.getByLabel('Search institutions by name').fill(institution);
    await page.getByRole('radio', { name: new RegExp(institution.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).check();
    await expect(page.getByText(`Selected: ${institution}`)).toBeVisible();
    await page.getByLabel('First name', { exact: true }).fill('Eric');
    await page.getByLabel('Last name', { exact: true }).fill('Nshimiyimana');
    await page.getByLabel('Job title', { exact: true }).fill('Lecturer');
    await page.getByLabel('Work email', { exact: true }).fill('eric@university.example');
    await page.getByLabel('Phone country', { exact: true }).selectOption('RW');
    await page.getByLabel('Phone number', { exact: true }).fill('0788654321');
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('I accept the terms of use and the privacy policy').check();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Ask to join' }).click();
    await expect(page).toHaveURL(/\/signup\/partner\/pending$/);

    const mail = await latestEmail(request, email, /verif/i);
    await page.goto(linkIn(mail.text, '/auth/verify-email'));
    await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Waiting for your institution');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // The institution's administrator sees the request waiting and approves it on the Team page.
    await signIn(page, 'demo.staff@kaminuza.example', 'Kaminuza#2025');
    await page.getByRole('link', { name: 'Review join requests' }).click();
    await expect(page).toHaveURL(/\/partner\/team\?tab=requests$/);
    const requests = page.getByRole('tabpanel');
    await expect(requests.getByText('Eric Nshimiyimana')).toBeVisible();
    await expectNoAxeViolations(page);
    await requests.getByRole('button', { name: 'Approve Eric Nshimiyimana' }).click();
    await expect(requests.getByText('Request approved.')).toBeVisible();
    await expect(requests.getByText('Eric Nshimiyimana')).toHaveCount(0);
    await page.context().clearCookies();

    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/partner\/dashboard$/);
    await expect(page.getByRole('heading', { level: 2, name: institution })).toBeVisible();
  });
});

test.describe('partner dashboard', () => {
  test.slow();

  test('the demo staff member reaches the dashboard, edits the profile and toggles Published', async ({ page }) => {
    await signIn(page, 'demo.staff@kaminuza.example', 'Kaminuza#2025');
    await expect(page).toHaveURL(/\/partner\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await expect(page.getByText('Approved', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Join requests' })).toBeVisible();
    await expectNoAxeViolations(page);
    await expectNoHorizontalScroll(page);

    await page.getByRole('link', { name: 'Edit the profile' }).click();
    await expect(page).toHaveURL(/\/partner\/profile$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Institution profile');
    await expectNoAxeViolations(page);
    await expectNoHorizontalScroll(page);

    // Both projects share the demo institution: only one of them changes it (the whole-journey test
    // edits and publishes on a phone too, with an institution of its own).
    if (test.info().project.name !== 'desktop') return;
    const description = `Updated ${randomBytes(3).toString('hex')}: a campus in the hills.`;
    await page.getByLabel('Description').fill(description);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Description')).toHaveValue(description);

    // The switch saves at once; it is put back so the demo institution stays listed.
    const published = page.getByRole('switch', { name: 'Published' });
    await expect(published).toHaveAttribute('aria-checked', 'true');
    await published.click();
    await expect(published).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByText('Hidden from students.')).toBeVisible();
    await page.reload();
    await expect(published).toHaveAttribute('aria-checked', 'false');
    await published.click();
    await expect(published).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByText('Students can find your institution.')).toBeVisible();

    await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByText('Published: students can find it')).toBeVisible();
  });
});
