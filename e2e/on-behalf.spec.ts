import type { Page } from '@playwright/test';
import {
  expect,
  expectNoAxeViolations,
  openMenuIfCollapsed,
  ownBrowser,
  recordRenderEvent,
  test,
  waitForApp,
} from './fixtures.ts';
import { PASSWORD, uniqueEmail } from './institutions.ts';
import { latestEmail } from './mailbox.ts';
import { signInNewInstitution, signInReadyInstitution } from './staff.ts';
import { signInNewStudent } from './students.ts';

const LINK = 'Submit for an applicant';

/** Nothing wider than the screen (360 px on the mobile project). */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The institution area's navigation link, in the side rail on wide screens and in the header menu on phones. */
async function navLink(page: Page, name: string) {
  await openMenuIfCollapsed(page);
  return page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name, exact: true });
}

/** Step 1: the applicant's details. */
async function fillApplicant(page: Page, email: string) {
  await page.getByLabel('First name').fill('Aline');
  await page.getByLabel('Last name').fill('Uwase');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Phone number').fill('+250788123456');
  await page.getByLabel('Nationality (optional)').selectOption('RW');
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Spec section 6: a member holding submit_applications fills a form for a named applicant; the
 * submission is unpaid and marked as made by the institution, and the applicant gets the receipt.
 */
test('a member submits an application for a named applicant, who gets the receipt by email', async ({
  page,
  request,
  context,
}) => {
  test.slow();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const institution = await signInReadyInstitution(page, request);
  await page.goto('/partner/dashboard');
  await waitForApp(page);
  await (await navLink(page, LINK)).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Submit an application for an applicant' })).toBeVisible();
  await expect(page.getByText(/no application fee is charged/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveCount(3);

  // 1. The applicant: refused while incomplete, then filled in.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
  const email = uniqueEmail('applicant');
  await fillApplicant(page, email);

  // 2. Program and campus: the campus is asked for, then the only one offering the program is chosen.
  await expect(page.getByRole('heading', { level: 2, name: 'Program and campus' })).toBeFocused();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Program', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Program', { exact: true }).selectOption({ label: institution.programName });
  await expect(page.getByLabel('Campus', { exact: true })).toHaveValue(institution.campusId);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  // 3. The form in the member's language, checked before it is sent.
  await expect(page.getByRole('heading', { level: 2, name: 'Application form' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Application form for the applicant' });
  await expect(form.getByText(`For Aline Uwase · ${institution.programName} · Rubavu Lakeside Campus`)).toBeVisible();
  await expect(form.getByRole('group', { name: 'About you' })).toBeVisible();
  await form.getByRole('button', { name: 'Submit the application' }).click();
  await expect(form.getByText('2 questions need attention.')).toBeVisible();
  await expect(form.getByLabel(/Your full name/)).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel(/Your full name/).fill('Aline Uwase');
  await form.getByLabel(/Why do you want to study with us/).fill('I want to protect Lake Kivu and its shores.');
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
  await form.getByRole('button', { name: 'Submit the application' }).click();

  // The receipt: a reference to copy, what was submitted, unpaid.
  await expect(page.getByRole('heading', { level: 2, name: 'Application submitted' })).toBeVisible();
  await expect(page.getByText(`A receipt has been sent to ${email}.`)).toBeVisible();
  const reference = (await page.getByRole('status', { name: 'Submission reference' }).textContent())?.trim() ?? '';
  expect(reference).toMatch(/^\S{4,}$/);
  await page.getByRole('button', { name: 'Copy reference' }).click();
  await expect(page.getByText('Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
  await expect(page.getByText('Copied!')).toBeHidden({ timeout: 5_000 });
  await expect(page.getByText('Aline Uwase', { exact: true })).toBeVisible();
  await expect(page.getByText('no application fee was charged')).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  // The applicant's receipt names the reference.
  expect((await latestEmail(request, email, /is submitted/)).text).toContain(reference);

  // Another application starts from an empty applicant.
  await page.getByRole('button', { name: 'Submit another application' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Applicant' })).toBeFocused();
  await expect(page.getByLabel('Email address')).toHaveValue('');
});

test('an application submitted for a verified student joins their account: they see it in their applications and are told by email', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const student = await ownBrowser(browser, baseURL);
  const email = await signInNewStudent(student, request, baseURL!);
  const institution = await signInReadyInstitution(page, request);

  await page.goto('/partner/applications/new');
  await waitForApp(page);
  await expect(page.getByText('If it is the address of a verified Kaminuza student account')).toBeVisible();
  // Typed as a member might, in capitals: the account is still found.
  await fillApplicant(page, email.toUpperCase());
  await page.getByLabel('Program', { exact: true }).selectOption({ label: institution.programName });
  await page.getByRole('button', { name: 'Continue' }).click();
  const form = page.getByRole('form', { name: 'Application form for the applicant' });
  await form.getByLabel(/Your full name/).fill('Aline Uwase');
  await form.getByLabel(/Why do you want to study with us/).fill('I want to protect Lake Kivu and its shores.');
  await form.getByRole('button', { name: 'Submit the application' }).click();
  // The member is told what any submission tells them: nothing says an account was found.
  await expect(page.getByRole('heading', { level: 2, name: 'Application submitted' })).toBeVisible();
  const reference = (await page.getByRole('status', { name: 'Submission reference' }).textContent())?.trim() ?? '';

  // The student is told by email, and finds the application in their account.
  const told = await latestEmail(request, email, new RegExp(`${institution.name} submitted an application for you`));
  expect(told.text).toContain(reference);
  await student.goto('/home');
  await waitForApp(student);
  await expect(student.getByRole('listitem', { name: institution.name }).first()).toContainText('Submitted');
  await student.goto('/application');
  await waitForApp(student);
  await expect(student.getByRole('listitem', { name: institution.name }).first()).toContainText('Applied');
  await expectNoAxeViolations(student);
  await student.context().close();
});

test(
  'a closed admission cycle is explained, with the way to the cycles',
  { tag: '@desktop-only' },
  async ({ page, request }) => {
    await signInReadyInstitution(page, request, { closed: true });
    await page.goto('/partner/applications/new');
    await waitForApp(page);
    await fillApplicant(page, uniqueEmail('applicant'));
    await expect(page.getByRole('heading', { name: 'The current admission cycle is closed' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to admission cycles' })).toHaveAttribute('href', '/partner/cycles');
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
  },
);

test(
  'a member invited to build forms only sees no link and is told they may not submit',
  { tag: '@desktop-only' },
  async ({ page, request, browser, baseURL, viewport, isMobile, hasTouch }) => {
    test.slow();
    const institution = await signInNewInstitution(page, request);
    const origin = new URL(page.url()).origin;
    const email = uniqueEmail('forms-officer');
    const invited = await page.request.post(`/api/v1/partners/${institution.partnerId}/invitations`, {
      headers: { origin },
      data: {
        email,
        first_name: 'Eric',
        last_name: 'Habimana',
        role: 'Forms officer',
        permissions: ['manage_forms'],
        team_ids: [],
        language: 'en',
      },
    });
    expect(invited.ok(), await invited.text()).toBe(true);
    const token = /[?&]token=([^\s&)]+)/.exec((await latestEmail(request, email, /invited/i)).text)?.[1];
    expect(token).toBeTruthy();

    const colleagueContext = await browser.newContext({ baseURL, viewport, isMobile, hasTouch });
    const accepted = await colleagueContext.request.post('/api/v1/auth/invitations/accept', {
      headers: { origin },
      data: { token, first_name: 'Eric', last_name: 'Habimana', password: PASSWORD, accept_terms: true },
    });
    expect(accepted.ok(), await accepted.text()).toBe(true);
    const colleague = await colleagueContext.newPage();
    await recordRenderEvent(colleague);
    await colleague.goto('/partner/dashboard');
    await waitForApp(colleague);
    await expect(await navLink(colleague, 'Forms')).toBeVisible();
    await expect(colleague.getByRole('link', { name: LINK })).toHaveCount(0);

    await colleague.goto('/partner/applications/new');
    await waitForApp(colleague);
    await expect(
      colleague.getByRole('heading', { level: 1, name: 'Submit an application for an applicant' }),
    ).toBeVisible();
    await expect(
      colleague.getByRole('heading', { name: 'You do not have permission to submit applications' }),
    ).toBeVisible();
    await expect(colleague.getByLabel('First name')).toHaveCount(0);
    await expectNoAxeViolations(colleague);
    await expectNoSidewaysScroll(colleague);
    await colleagueContext.close();
  },
);
