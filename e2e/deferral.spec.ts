import { apiData, chooseTheme, expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { latestEmail } from './mailbox.ts';
import { day, setUpReview, signInReadyInstitution, submitApplication } from './staff.ts';
import { signInNewStudent } from './students.ts';

/*
 * Deferral of an accepted offer (issue 26, ADR 053), as the people using it would: the applicant who
 * accepted an offer asks to start in the next intake instead, giving a reason; the institution's decision
 * maker is told, reads the request on the decision with the places left in that intake, and approves it
 * with a note; the applicant reads the answer, gets the email, and the letter names the new intake.
 */

test('an accepted offer deferred to the next intake: the applicant asks, staff approve with a note, the letter names it', async ({
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
  const headers = { origin: baseURL! };
  const base = `/api/v1/partners/${institution.partnerId}`;
  // The next intake, not open for applications yet, offers the same program, with five places.
  const next = await apiData<{ id: string }>(
    await page.request.post(`${base}/cycles`, {
      headers,
      data: {
        name: 'Intake 2027/28',
        opens_on: day(365),
        closes_on: day(425),
        decision_release_on: null,
        status: 'draft',
        program_ids: [institution.programId],
      },
    }),
  );
  await apiData(
    await page.request.put(`${base}/cycles/${next.id}/places`, {
      headers,
      data: { places: [{ program_id: institution.programId, campus_id: institution.campusId, places: 5 }] },
    }),
  );

  const student = await ownBrowser(browser, baseURL);
  const email = await signInNewStudent(student, request, baseURL!);
  const submission = await submitApplication(student, institution, baseURL!);
  // The offer, released (the decision screens have their own tests).
  await apiData(
    await page.request.put(`${base}/review/submissions/${submission.id}/decision`, {
      headers,
      data: { state: 'accepted' },
    }),
  );
  await apiData(
    await page.request.post(`${base}/decisions/release`, {
      headers,
      data: { submission_ids: [submission.id], when: 'now' },
    }),
  );

  // The applicant accepts the offer, then asks to defer it.
  await student.goto(`/partners/${institution.partnerId}/application/decision`);
  await student.getByRole('button', { name: 'Accept the offer' }).click();
  await student
    .getByRole('dialog', { name: 'Accept this offer?' })
    .getByRole('button', { name: 'Yes, accept' })
    .click();
  await expect(student.getByText(/^You accepted this offer on /)).toBeVisible();
  const deferral = student.getByRole('region', { name: 'Defer your place' });
  await expect(deferral.getByText(/You can ask .* to hold your place in BSc Environmental Science/)).toBeVisible();
  await deferral.getByRole('button', { name: 'Ask to defer' }).click();
  const ask = student.getByRole('dialog', { name: 'Ask to defer your place' });
  // Sending nothing says what is missing.
  await ask.getByRole('button', { name: 'Send the request' }).click();
  await expect(ask.getByText('Choose the intake you want to defer to.')).toBeVisible();
  await ask.getByLabel('Intake').selectOption({ label: 'Intake 2027/28' });
  await ask.getByLabel('Why do you want to defer?').fill('I have been called up for a year of national service.');
  await expectAccessibleAndFitting(student);
  await ask.getByRole('button', { name: 'Send the request' }).click();
  await expect(student.getByText('Your request to defer was sent.')).toBeVisible();
  await expect(
    deferral.getByText(/^You asked on .* to defer your place to Intake 2027\/28\. .* has not answered yet\.$/),
  ).toBeVisible();
  await expect(deferral.getByRole('button', { name: 'Withdraw the request' })).toBeVisible();
  await expectAccessibleAndFitting(student);

  // The decision maker is told, and reads the request on the decision with the places left there.
  await page.goto('/partner/dashboard');
  await page.getByTestId('notifications-bell').click();
  const notices = page.getByRole('region', { name: 'Notifications' });
  await expect(
    notices.getByText(
      `Application ${submission.reference} asks to defer its place in BSc Environmental Science to Intake 2027/28.`,
    ),
  ).toBeVisible();
  await page.goto(`/partner/applications/${submission.id}?tab=decision`);
  await expect(page.getByRole('heading', { name: 'Request to defer' })).toBeVisible();
  await expect(page.getByText('I have been called up for a year of national service.')).toBeVisible();
  await expect(page.getByText('Places in Intake 2027/28: 5 of 5 left.')).toBeVisible();
  await chooseTheme(page, 'dark');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expectAccessibleAndFitting(page);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const approve = page.getByRole('dialog', { name: 'Approve deferring to Intake 2027/28?' });
  await approve.getByLabel(/^Note to the applicant/).fill('Good luck with your service. See you next year.');
  await expectAccessibleAndFitting(page);
  await approve.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByText('Deferral approved: the offer now holds a place in Intake 2027/28.')).toBeVisible();
  await expect(page.getByText(/^Deferred to Intake 2027\/28 on /)).toBeVisible();
  await expectAccessibleAndFitting(page);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByText('Deferral requested by the applicant')).toBeVisible();
  await expect(page.getByText('Deferral approved', { exact: true })).toBeVisible();

  // The applicant reads the answer with its note, in light and dark, and gets the email.
  await student.reload();
  await expect(
    deferral.getByText(/^Your place is deferred to Intake 2027\/28: .* approved your request on /),
  ).toBeVisible();
  await expect(deferral.getByText('Good luck with your service. See you next year.')).toBeVisible();
  await expect(deferral.getByRole('button', { name: 'Withdraw the request' })).toHaveCount(0);
  await expectAccessibleAndFitting(student);
  await chooseTheme(student, 'dark');
  await expect(student.locator('html')).toHaveClass(/dark/);
  await expectAccessibleAndFitting(student);
  const mail = await latestEmail(request, email, /approved deferring your place/);
  expect(mail.text).toContain('Intake 2027/28');
  expect(mail.text).toContain('Good luck with your service. See you next year.');

  // The letter names the intake the place is now held in.
  await student.getByRole('button', { name: 'View letter' }).click();
  const letter = student.getByRole('article', { name: 'Letter of admission' });
  await expect(letter).toContainText('in the admission cycle Intake 2027/28');
  await expect(letter).toContainText('Intake 2027/28');
});
