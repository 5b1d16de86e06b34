import type { Browser, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, recordRenderEvent, test } from './fixtures.ts';
import { signIn } from './institutions.ts';
import { signInReadyInstitution, type ReadyInstitution } from './staff.ts';

const DEMO_STUDENT = { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' };

async function expectAccessibleAndFitting(page: Page) {
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** The demo student in a browser of their own, sized like the project's (360 px on the mobile project). */
async function studentBrowser(browser: Browser, baseURL: string | undefined) {
  const { viewport, isMobile, hasTouch } = test.info().project.use;
  const context = await browser.newContext({
    baseURL,
    viewport,
    isMobile,
    hasTouch,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await recordRenderEvent(page);
  await signIn(page, DEMO_STUDENT.email, DEMO_STUDENT.password);
  await expect(page).toHaveURL(/\/home$/);
  return { context, page };
}

/** A second campus for the institution's program, added by its Admin (signed in on `page`) through the api. */
async function teachAtSecondCampus(page: Page, institution: ReadyInstitution): Promise<string> {
  const headers = { origin: new URL(page.url()).origin };
  const base = `/api/v1/partners/${institution.partnerId}`;
  const campus = await page.request.post(`${base}/campuses`, {
    headers,
    data: { name: 'Kigali Heights Campus', address: 'KG 7 Avenue 3', city: 'Kigali', country: 'RW' },
  });
  expect(campus.ok(), await campus.text()).toBe(true);
  const campusId = ((await campus.json()) as { data: { id: string } }).data.id;
  const program = await page.request.put(`${base}/programs/${institution.programId}`, {
    headers,
    data: {
      name: institution.programName,
      level: 'undergraduate',
      field: 'natural_sciences',
      duration_months: 48,
      language: 'en',
      tuition_amount: 1800,
      tuition_currency: 'USD',
      requirements: 'Secondary school certificate with science subjects.',
      seats: 60,
      campus_ids: [institution.campusId, campusId],
    },
  });
  expect(program.ok(), await program.text()).toBe(true);
  return campusId;
}

const saveStatus = (page: Page) => page.getByRole('status').filter({ hasText: /Sav|Offline|Not saved/ });

test('a student finds a university, applies across sections, survives offline and a second tab, pays, submits and copies the reference', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // An institution set up through the api, a student journey with a payment: long on a loaded machine.
  test.slow();
  const institution = await signInReadyInstitution(page, request);
  const { context, page: student } = await studentBrowser(browser, baseURL);

  // Explore → the university → Apply.
  await student.goto('/partners');
  await student.getByLabel('Search universities').fill(institution.name);
  await student.getByRole('link', { name: institution.name, exact: true }).click();
  await expect(student.getByRole('heading', { level: 1, name: institution.name })).toBeVisible();
  await student.getByRole('link', { name: 'Apply', exact: true }).click();

  // The start screen: the cycle, the fee, the program (its only campus needs no choice).
  await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application$`));
  await expect(student.getByRole('heading', { level: 1, name: `Apply to ${institution.name}` })).toBeVisible();
  await expect(student.getByText(/Application fee: \$100\.00/)).toBeVisible();
  await student.getByRole('radio', { name: new RegExp(institution.programName) }).check();
  await expectAccessibleAndFitting(student);
  await student.getByRole('button', { name: 'Start application' }).click();

  // Section 1, saved as the student types.
  await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application/form$`));
  await expect(student.getByRole('heading', { level: 2, name: 'Section 1 of 2' })).toBeVisible();
  const fullName = student.getByLabel(/Your full name/);
  await fullName.fill('Aline Uwase');
  await expect(saveStatus(student)).toHaveText(/^Saved \d/);
  await expectAccessibleAndFitting(student);

  // Offline: typing goes on, the indicator says so; back online it is saved.
  await context.setOffline(true);
  await fullName.fill('Aline Uwase Mukamana');
  await expect(saveStatus(student)).toHaveText('Saved on this device');
  await context.setOffline(false);
  await expect(saveStatus(student)).toHaveText(/^Saved \d/);

  // A second tab on the same form saves a change; the first tab's next save is refused and asks.
  const second = await context.newPage();
  await second.goto(student.url());
  const secondName = second.getByLabel(/Your full name/);
  await expect(secondName).toHaveValue('Aline Uwase Mukamana');
  await secondName.fill('Aline M. Uwase');
  await expect(saveStatus(second)).toHaveText(/^Saved \d/);
  await fullName.fill('Aline Uwase M.');
  const conflict = student.getByRole('dialog', {
    name: 'This application was changed in another tab or on another device.',
  });
  await expect(conflict).toBeVisible();
  await expectAccessibleAndFitting(student);
  await conflict.getByRole('button', { name: 'Load the newer version' }).click();
  await expect(conflict).toBeHidden();
  await expect(student.getByLabel(/Your full name/)).toHaveValue('Aline M. Uwase');
  await second.close();

  // Next checks the section with the submission's rules: an invalid phone stops it, named and focused.
  const phone = student.getByLabel(/Your phone number/);
  await expect(phone).toHaveValue('+250788123456');
  await phone.fill('0788 12');
  await student.getByRole('button', { name: 'Next' }).click();
  await expect(student.getByRole('heading', { level: 2, name: 'Section 1 of 2' })).toBeVisible();
  const summary = student.getByRole('alert').filter({ hasText: 'needs attention' });
  await expect(summary).toContainText('Your phone number');
  await expect(phone).toBeFocused();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(phone).toHaveAccessibleDescription(
    /Enter the phone number with its country code, e\.g\. \+250788123456/,
  );
  await expectAccessibleAndFitting(student);
  await phone.fill('+250 788 123 456');
  await expect(summary).toBeHidden();
  await expect(phone).not.toHaveAttribute('aria-invalid', 'true');

  // Section 2, then the payment step.
  await student.getByRole('button', { name: 'Next' }).click();
  await expect(student.getByRole('heading', { level: 2, name: 'Section 2 of 2' })).toBeVisible();
  await student
    .getByLabel(/Why do you want to study with us/)
    .fill('To study the lake ecosystems of the Albertine Rift and work on their protection.');
  await student.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(student.getByRole('heading', { level: 2, name: 'Payment' })).toBeVisible();
  await expectAccessibleAndFitting(student);

  // Review before paying: Submit waits for the fee.
  await student.getByRole('button', { name: /Review & submit/ }).click();
  await expect(student.getByText('Please pay the application fee before submitting.')).toBeVisible();
  await expect(student.getByRole('button', { name: 'Submit application' })).toBeDisabled();
  await student.getByRole('button', { name: /Payment/ }).click();

  // The card provider's hosted checkout (the Flutterwave simulator), then /pay and back to the application.
  await student.getByRole('button', { name: 'Pay $100.00' }).click();
  await expect(student).toHaveTitle(/Flutterwave test checkout/);
  await student.getByLabel('Card number').fill('4242 4242 4242 4242');
  await student.getByLabel('Expiry date (MM/YY)').fill('12/30');
  await student.getByLabel('Security code (CVC)').fill('123');
  await student.getByRole('button', { name: /^Pay / }).click();
  await expect(student).toHaveURL(/\/pay\?reference=/);
  await expect(student.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await student.getByRole('link', { name: 'Back to my application' }).click();
  await expect(student).toHaveURL(/\/application\/form/);
  await expect(student.getByText(/Paid ✓/)).toBeVisible();
  await student.getByRole('button', { name: 'Continue to review' }).click();

  // Review and submit.
  await expect(student.getByRole('heading', { level: 2, name: 'Review & submit' })).toBeVisible();
  await expect(student.getByText('Aline M. Uwase')).toBeVisible();
  await expectAccessibleAndFitting(student);
  // Submitting asks first, naming the university, the program and the fee.
  await student.getByRole('button', { name: 'Submit application' }).click();
  const confirm = student.getByRole('dialog', { name: 'Submit your application?' });
  await expect(confirm).toContainText(institution.name);
  await expect(confirm).toContainText(institution.programName);
  await expect(confirm).toContainText('Rubavu Lakeside Campus');
  await expect(confirm).toContainText('$100.00');
  await expectAccessibleAndFitting(student);
  await confirm.getByRole('button', { name: 'Not yet' }).click();
  await expect(confirm).toBeHidden();
  await expect(student).toHaveURL(/\/application\/form/);
  await student.getByRole('button', { name: 'Submit application' }).click();
  await confirm.getByRole('button', { name: 'Yes, submit' }).click();

  // The confirmation, with a reference to copy.
  await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application/submitted$`));
  await expect(student.getByRole('heading', { level: 1, name: 'Application submitted' })).toBeVisible();
  const reference = (await student.locator('code').innerText()).trim();
  expect(reference).toMatch(/^[A-Z0-9-]{6,}$/);
  await student.getByRole('button', { name: 'Copy the submission reference' }).click();
  await expect(student.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await student.evaluate(() => navigator.clipboard.readText())).toBe(reference);
  await expectAccessibleAndFitting(student);

  // The applications area: the card says Applied, with the reference; the search finds it.
  await student.getByRole('link', { name: 'Your applications' }).first().click();
  await expect(student).toHaveURL(/\/application$/);
  await student.getByLabel('Search your universities').fill(institution.name);
  await expect(student.getByText('1 university', { exact: true })).toBeVisible();
  const card = student.getByRole('listitem').filter({ hasText: institution.name });
  await expect(card.getByText('Applied', { exact: true })).toBeVisible();
  await expect(card.getByText(reference)).toBeVisible();
  await expectAccessibleAndFitting(student);

  await context.close();
});

test(
  'a closed cycle sends the student to the closed view, and unknown addresses to the not-found view',
  { tag: '@desktop-only' },
  async ({ page, request, browser, baseURL }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request, { closed: true });
    const { context, page: student } = await studentBrowser(browser, baseURL);

    await student.goto(`/partners/${institution.partnerId}`);
    await student.getByRole('link', { name: 'Apply', exact: true }).click();
    await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application/closed$`));
    await expect(student.getByRole('heading', { level: 1, name: 'Applications are closed' })).toBeVisible();
    await expect(student.getByText(/Intake 2026 \(closed\) took applications from/)).toBeVisible();
    await expectAccessibleAndFitting(student);

    await student.goto('/application/form?partner=00000000-0000-4000-8000-000000000000');
    await expect(student).toHaveURL(/\/application\/not-found/);
    await expect(student.getByRole('heading', { level: 1, name: 'We could not find this application' })).toBeVisible();
    await student.goto(`/partners/${institution.partnerId}/application/elsewhere`);
    await expect(student.getByRole('heading', { level: 1, name: 'We could not find this application' })).toBeVisible();
    await expectAccessibleAndFitting(student);

    await context.close();
  },
);

test('a program taught at two campuses waits for the applicant’s campus, and a draft can be discarded', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const institution = await signInReadyInstitution(page, request);
  await teachAtSecondCampus(page, institution);
  const { context, page: student } = await studentBrowser(browser, baseURL);

  // No campus is chosen for the applicant: Start says so and starts nothing.
  await student.goto(`/partners/${institution.partnerId}/application`);
  await student.getByRole('radio', { name: new RegExp(institution.programName) }).check();
  const campuses = student.getByRole('radiogroup', { name: 'Choose a campus' });
  await expect(campuses.getByRole('radio')).toHaveCount(2);
  await expect(campuses.getByRole('radio', { checked: true })).toHaveCount(0);
  await student.getByRole('button', { name: 'Start application' }).click();
  await expect(campuses).toContainText('Choose the campus where you want to study.');
  await expect(campuses.getByRole('radio', { name: /Kigali Heights Campus/ })).toBeFocused();
  await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application$`));
  await expectAccessibleAndFitting(student);

  // The campus chosen is the application's, and the form says which.
  await campuses.getByRole('radio', { name: /Rubavu Lakeside Campus/ }).check();
  await student.getByRole('button', { name: 'Start application' }).click();
  await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application/form$`));
  await expect(student.getByText('Campus: Rubavu Lakeside Campus')).toBeVisible();

  // Discard draft asks first; keeping it changes nothing.
  await student.getByRole('button', { name: 'Discard draft' }).click();
  const dialog = student.getByRole('dialog', { name: 'Discard this draft?' });
  await expect(dialog).toContainText(institution.name);
  await expectAccessibleAndFitting(student);
  await dialog.getByRole('button', { name: 'Keep the draft' }).click();
  await expect(dialog).toBeHidden();
  await expect(student).toHaveURL(/\/application\/form$/);

  // Discarding deletes it and says so on the applications list; the university takes a new start.
  await student.getByRole('button', { name: 'Discard draft' }).click();
  await dialog.getByRole('button', { name: 'Discard draft' }).click();
  await expect(student).toHaveURL(/\/application$/);
  await expect(student.getByRole('status').filter({ hasText: 'was discarded' })).toContainText(institution.name);
  await expectAccessibleAndFitting(student);
  // A new start, discarded this time from its card on the applications list.
  await student.goto(`/partners/${institution.partnerId}/application`);
  await student.getByRole('radio', { name: new RegExp(institution.programName) }).check();
  await campuses.getByRole('radio', { name: /Kigali Heights Campus/ }).check();
  await student.getByRole('button', { name: 'Start application' }).click();
  await expect(student.getByText('Campus: Kigali Heights Campus')).toBeVisible();
  await student.getByRole('link', { name: 'Your applications' }).first().click();
  await student.getByLabel('Search your universities').fill(institution.name);
  const card = student.getByRole('listitem').filter({ hasText: institution.name });
  await expect(card.getByText('In Progress', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: new RegExp(`^Discard draft.*${institution.name}$`) }).click();
  await dialog.getByRole('button', { name: 'Discard draft' }).click();
  await expect(dialog).toBeHidden();
  await expect(student.getByRole('status').filter({ hasText: 'was discarded' })).toContainText(institution.name);
  await expect(card).toBeHidden();

  await context.close();
});
