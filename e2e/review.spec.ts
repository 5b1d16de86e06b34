import type { Page } from '@playwright/test';
import { apiData, expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { signIn } from './institutions.ts';
import { setUpReview, signInReadyInstitution, submitApplication, type ReadyInstitution } from './staff.ts';

const DEMO_STUDENT = { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' };

/**
 * The institution's review set up through the api: an interview stage and a two-criterion rubric. The
 * demo student then applies and submits.
 */
async function submittedApplication(staff: Page, student: Page, institution: ReadyInstitution, baseURL: string) {
  await setUpReview(
    staff,
    institution,
    {
      letter: 'Dear {student_name},\n\nWe are delighted to admit you to {program_name} at {campus_name}.',
      stages: [{ id: 'interview', name: 'Interview' }],
      rubric: [
        { id: 'academic', name: 'Academic record', weight: 2 },
        { id: 'motivation', name: 'Motivation', weight: 1 },
      ],
    },
    baseURL,
  );
  await apiData(
    await student.request.post('/api/v1/auth/sign-in', { headers: { origin: baseURL }, data: DEMO_STUDENT }),
  );
  return (await submitApplication(student, institution, baseURL)).reference;
}

test('review and decision: a reviewer filters, notes and scores; the decision is released; the applicant reads, prints and accepts the offer; the letter verifies', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const institution = await signInReadyInstitution(page, request);
  const student = await ownBrowser(browser, baseURL);
  await student.goto('/login');
  const reference = await submittedApplication(page, student, institution, baseURL!);

  // The staff member reaches the queue from the navigation and finds the new application.
  await page.goto('/partner/dashboard');
  await page.getByRole('link', { name: 'Applications', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
  await expect(page.getByText('1 application', { exact: true })).toBeVisible();
  await page.getByText('Filters', { exact: true }).click();
  await page.getByLabel('Stage').selectOption({ label: 'New' });
  await expect(page).toHaveURL(/stage=new/);
  await page.getByLabel('Search').fill('amani');
  const row = page.getByRole('link', { name: reference });
  await expect(row).toBeVisible();
  await expectAccessibleAndFitting(page);
  await row.click();

  // The application as submitted; a note, a score, a stage.
  await expect(page.getByRole('heading', { level: 1, name: 'Amani Uwase' })).toBeVisible();
  await expect(page.getByText('I want to study the lakes of my country.')).toBeVisible();
  await expectAccessibleAndFitting(page);
  await page.getByRole('tab', { name: /^Notes/ }).click();
  await page.getByLabel('New note').fill('Strong motivation; invite to an interview.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Strong motivation; invite to an interview.')).toBeVisible();
  await page.getByLabel('Stage').selectOption({ label: 'Interview' });
  await expect(page.getByText('Stage saved.')).toBeVisible();
  await page.getByLabel('Assigned reviewer').selectOption({ label: 'Diane Mukeshimana (you)' });
  await expect(page.getByText('Reviewer assigned.')).toBeVisible();
  await page.getByRole('tab', { name: /^Scores/ }).click();
  await page.getByLabel(/^Academic record/).fill('90');
  await page.getByLabel(/^Motivation/).fill('84');
  await expect(page.getByText('Your weighted total: 88 / 100')).toBeVisible();
  await page.getByRole('button', { name: 'Save score' }).click();
  await expect(page.getByText('Score saved.')).toBeVisible();
  await expect(page.getByText('Average 88 from 1 reviewer').first()).toBeVisible();

  // The decision maker drafts an acceptance and releases it.
  await page.getByRole('tab', { name: 'Decision' }).click();
  await page.getByRole('button', { name: 'Draft: accept' }).click();
  await expect(page.getByText('Draft saved: Accepted.')).toBeVisible();
  await page.getByRole('button', { name: 'Release now' }).click();
  const release = page.getByRole('dialog', { name: 'Release this decision now?' });
  await release.getByRole('button', { name: 'Release now' }).click();
  await expect(page.getByText('Decision released. The applicant has been told by email.')).toBeVisible();
  await page.getByRole('tab', { name: 'History' }).click();
  const history = page.getByRole('list', { name: 'History of the application' });
  // Newest first; the assignment names who it went to, and the submission opens the history.
  await expect(history.getByRole('listitem').filter({ hasText: 'Reviewer assigned' })).toContainText(
    'Now assigned to Diane Mukeshimana',
  );
  await expect(history.getByRole('listitem').filter({ hasText: 'Stage changed' })).toContainText(
    'No stage → Interview',
  );
  await expect(history.getByRole('listitem').last()).toContainText('Application submitted');
  await expect(history.getByRole('listitem').last()).toContainText('By the applicant');
  await expectAccessibleAndFitting(page);

  // The applicant opens the decision from the home screen.
  await student.goto('/home');
  const card = student.getByRole('listitem', { name: institution.name }).first();
  await expect(card).toContainText('Accepted');
  await card.getByRole('link', { name: /View decision/ }).click();
  await expect(student.getByRole('heading', { level: 1, name: 'Decision' })).toBeVisible();
  await expect(student.getByText(`Congratulations! ${institution.name} offers you a place`)).toBeVisible();
  await expectAccessibleAndFitting(student);

  // The letter, on screen and in print: one A4 page with the letter only.
  await student.getByRole('button', { name: 'View letter' }).click();
  const letter = student.getByRole('article', { name: 'Letter of admission' });
  await expect(letter).toContainText(
    'We are delighted to admit you to BSc Environmental Science at Rubavu Lakeside Campus.',
  );
  await expect(letter).toContainText('Diane Mukeshimana');
  await expect(letter.locator('svg')).toBeVisible();
  const code = (await letter.getByText(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/).textContent())!;
  await expectAccessibleAndFitting(student);
  await student.emulateMedia({ media: 'print' });
  await expect(letter).toBeVisible();
  await expect(student.getByRole('navigation')).toHaveCount(0);
  await expect(student.getByRole('button', { name: 'Print' })).toBeHidden();
  const pdf = await student.pdf({ format: 'A4', preferCSSPageSize: true });
  expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  await student.emulateMedia({ media: 'screen' });

  // Accepting is final, behind a confirmation.
  await student.getByRole('button', { name: 'Accept the offer' }).click();
  const confirm = student.getByRole('dialog', { name: 'Accept this offer?' });
  await expect(confirm).toContainText('This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Yes, accept' }).click();
  await expect(student.getByText(/^You accepted this offer on /)).toBeVisible();
  await expect(student.getByRole('button', { name: 'Accept the offer' })).toHaveCount(0);

  // The QR code's page confirms the letter to anyone, signed in or not.
  const visitor = await ownBrowser(browser, baseURL);
  await visitor.goto(`/letters/${code}`);
  await expect(visitor.getByRole('heading', { name: 'This letter is genuine' })).toBeVisible();
  await expect(visitor.getByText('Amani Uwase')).toBeVisible();
  await expect(visitor.getByText(institution.name)).toBeVisible();
  await expectAccessibleAndFitting(visitor);

  // The staff member sees the applicant's answer.
  await page.reload();
  await page.getByRole('tab', { name: 'Decision' }).click();
  await expect(page.getByText(/^Accepted the offer on /)).toBeVisible();
});

test('the queue is a dense table: it fits beside the navigation at 1280 px, one line per row, full program names on hover and focus', async ({
  page,
}, testInfo) => {
  await signIn(page, 'demo.staff@kaminuza.example', 'Kaminuza#2025');
  await expect(page).toHaveURL(/\/partner\//);
  await page.goto('/partner/applications');
  const region = page.getByRole('region', { name: 'Submitted applications' });
  const rows = region.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(3);

  if (testInfo.project.name === 'desktop') {
    // Nothing scrolls sideways: the last column (the fee) is inside the table's box.
    const overflow = await region.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(region.getByRole('columnheader', { name: 'Fee' })).toBeInViewport({ ratio: 1 });
    // Every row is one line of text high: all the same height, none taller than a line and its padding.
    const heights = await rows.evaluateAll((elements) => elements.map((row) => row.getBoundingClientRect().height));
    expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(1);
    expect(Math.max(...heights)).toBeLessThanOrEqual(48);
  } else {
    // On a phone the table scrolls inside its own region (focusable, so keyboards can scroll it); the page does not.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expect(region).toHaveAttribute('tabindex', '0');
  }

  // A program too long for its column is cut with an ellipsis; focusing its row or hovering it shows it whole.
  const row = rows.filter({ has: page.locator('td[data-truncated]') }).first();
  const cut = row.locator('td[data-truncated]');
  await expect(cut).toBeAttached();
  const full = (await cut.getAttribute('data-truncated'))!;
  await row.getByRole('link').focus();
  const tooltip = row.getByRole('tooltip');
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toHaveText(full);
  // Dismissed with Escape without moving focus (WCAG 1.4.13), shown again on hover.
  await page.keyboard.press('Escape');
  await expect(tooltip).toBeHidden();
  await expect(row.getByRole('link')).toBeFocused();
  await cut.hover();
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toHaveText(full);
  await expectAccessibleAndFitting(page);
});
