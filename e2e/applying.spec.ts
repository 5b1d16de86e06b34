import type { Browser, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, recordRenderEvent, test } from './fixtures.ts';
import { signIn } from './institutions.ts';
import { signInReadyInstitution } from './staff.ts';

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
  await expect(saveStatus(student)).toHaveText('Offline — not saved yet');
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

  // The sandbox's hosted checkout (/pay), then back to the application.
  await student.getByRole('button', { name: 'Pay $100.00' }).click();
  await expect(student).toHaveURL(/\/pay\?reference=/);
  await expect(student.getByRole('heading', { level: 1, name: 'Pay the application fee' })).toBeVisible();
  await student.getByLabel('Card number').fill('4242 4242 4242 4242');
  await student.getByLabel('Expiry date (MM/YY)').fill('12/30');
  await student.getByLabel('Security code (CVC)').fill('123');
  await student.getByRole('button', { name: 'Pay $100.00' }).click();
  await expect(student.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await student.getByRole('link', { name: 'Back to my application' }).click();
  await expect(student).toHaveURL(/\/application\/form/);
  await expect(student.getByText(/Paid ✓/)).toBeVisible();
  await student.getByRole('button', { name: 'Continue to review' }).click();

  // Review and submit.
  await expect(student.getByRole('heading', { level: 2, name: 'Review & submit' })).toBeVisible();
  await expect(student.getByText('Aline M. Uwase')).toBeVisible();
  await expectAccessibleAndFitting(student);
  await student.getByRole('button', { name: 'Submit application' }).click();

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
