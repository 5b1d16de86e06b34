import { apiData, expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { day, setUpReview, signInReadyInstitution, submitApplication } from './staff.ts';
import { signInNewStudent } from './students.ts';

/*
 * Offers with terms (issue 26, ADR 051), as the people using them would: a staff member makes a
 * conditional offer with a message and a reply deadline; the applicant reads the conditions and their
 * progress against their KCSE results, accepts, and reads the conditions in the letter; staff confirm
 * the conditions were met, and the offer becomes unconditional.
 */

test('a conditional offer with a deadline: staff set its terms, the applicant accepts it, staff confirm the conditions', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const institution = await signInReadyInstitution(page, request);
  await setUpReview(
    page,
    institution,
    { letter: '', rubric: [{ id: 'overall', name: 'Overall', weight: 1 }] },
    baseURL!,
  );
  const student = await ownBrowser(browser, baseURL);
  await signInNewStudent(student, request, baseURL!);
  // The applicant's KCSE results: mean grade B (a B in each of seven subjects).
  await apiData(
    await student.request.post('/api/v1/students/me/exam-sittings', {
      headers: { origin: baseURL! },
      data: {
        exam: 'knec_kcse',
        year: 2025,
        results: ['english_language', 'kiswahili', 'mathematics', 'biology', 'physics', 'chemistry', 'geography'].map(
          (subject) => ({ subject, grade: 'B' }),
        ),
      },
    }),
  );
  const submission = await submitApplication(student, institution, baseURL!);

  // The institution offers one place in this program at this campus (Cycles → Places).
  await page.goto('/partner/cycles');
  await page
    .getByRole('button', { name: /^Places in / })
    .first()
    .click();
  const places = page.getByRole('dialog', { name: /^Places in / });
  await places.getByLabel(`${institution.programName} — Rubavu Lakeside Campus`).fill('1');
  await places.getByRole('button', { name: 'Save places' }).click();
  await expect(places.getByText('Places saved.')).toBeVisible();
  await expectAccessibleAndFitting(page);
  await places.getByRole('button', { name: 'Close' }).click();

  // The decision maker drafts an offer, then gives it a message, two conditions and a deadline.
  await page.goto(`/partner/applications/${submission.id}?tab=decision`);
  await page.getByRole('button', { name: 'Draft: accept' }).click();
  await expect(page.getByText('Draft saved: Accepted.')).toBeVisible();
  const terms = page.getByRole('form', { name: 'Message and terms of the offer' });
  await terms.getByLabel(/^Message to the applicant/).fill('We look forward to welcoming you in September.');
  await terms.getByRole('button', { name: 'Add a written condition' }).click();
  await terms.getByLabel('Condition 1').fill('Send your certified school leaving certificate');
  await terms.getByRole('button', { name: 'Add an examination result' }).click();
  await terms.getByLabel('Condition 2: examination').selectOption('knec_kcse');
  await terms.getByLabel('Total points (mean grade): at least').selectOption('B');
  await terms.getByLabel(/^Reply by/).fill(day(14));
  await expectAccessibleAndFitting(page);
  await terms.getByRole('button', { name: 'Save the message and terms' }).click();
  await expect(page.getByText('Message and terms saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Release now' }).click();
  await page
    .getByRole('dialog', { name: 'Release this decision now?' })
    .getByRole('button', { name: 'Release now' })
    .click();
  await expect(page.getByText('Decision released. The applicant has been told by email.')).toBeVisible();
  await expect(page.getByText('Conditions pending')).toBeVisible();
  await expect(
    page.getByText(
      'Places for this program at this campus: 0 of 1 left (0 accepted, 1 awaiting an answer, 0 drafted).',
    ),
  ).toBeVisible();
  await expect(page.getByText('Total points (mean grade): B or better needed, the applicant has B')).toBeVisible();

  // The applicant reads the offer, its conditions against their results, and the deadline.
  await student.goto(`/partners/${institution.partnerId}/application/decision`);
  await expect(student.getByText(`offers you a conditional place in ${institution.programName}`)).toBeVisible();
  await expect(student.getByText('We look forward to welcoming you in September.')).toBeVisible();
  const conditions = student.getByRole('list', { name: 'Conditions of this offer' });
  await expect(conditions.getByText('Send your certified school leaving certificate')).toBeVisible();
  await expect(conditions.getByText('Total points (mean grade): B or better needed, you have B')).toBeVisible();
  await expect(student.getByText(/^Do you accept this offer\? Reply by /)).toBeVisible();
  await expectAccessibleAndFitting(student);

  // The letter states the conditions and the day to reply by.
  await student.getByRole('button', { name: 'View letter' }).click();
  const letter = student.getByRole('article', { name: 'Letter of admission' });
  await expect(letter).toContainText('This offer is conditional on the following:');
  await expect(letter).toContainText('KCSE: Total points (mean grade): B or better');
  await expect(letter).toContainText('Please accept or decline this offer by');
  await student.getByRole('button', { name: 'Hide letter' }).click();

  // Accepting while conditional, behind the spec's confirmation.
  await student.getByRole('button', { name: 'Accept the offer' }).click();
  await student
    .getByRole('dialog', { name: 'Accept this offer?' })
    .getByRole('button', { name: 'Yes, accept' })
    .click();
  await expect(student.getByText(/^You accepted this offer on /)).toBeVisible();

  // Staff confirm the conditions were met: the offer is unconditional for both sides.
  await page.reload();
  await expect(page.getByText(/^Accepted the offer on /)).toBeVisible();
  await page.getByRole('button', { name: 'Conditions met' }).click();
  await page
    .getByRole('dialog', { name: 'Confirm the conditions were met?' })
    .getByRole('button', { name: 'Conditions met' })
    .click();
  await expect(page.getByText('The offer is now unconditional. The applicant has been told.')).toBeVisible();
  await expectAccessibleAndFitting(page);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByText('Offer conditions met: the offer is unconditional')).toBeVisible();

  await student.reload();
  await expect(student.getByText('Conditions met: the offer is unconditional')).toBeVisible();
  await student.getByRole('button', { name: 'View letter' }).click();
  await expect(student.getByRole('article', { name: 'Letter of admission' })).not.toContainText(
    'This offer is conditional',
  );
});
