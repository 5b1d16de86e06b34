import type { Page } from '@playwright/test';
import { expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { setUpReview, signInReadyInstitution } from './staff.ts';
import { signInNewStudent } from './students.ts';
import { uniqueEmail } from './institutions.ts';

/*
 * Referees (issue 26, ADR 054), as the people involved would meet them: the institution adds a referees
 * question to its form in the builder; the applicant invites two referees, waiving the right to read one
 * letter; one referee, without an account, writes through the emailed link, which then cannot be used
 * again; the applicant sees who has written (never the waived letter) and submits; staff read the letter
 * and the queue counts it.
 */

interface Referee {
  name: string;
  kind: 'Teacher' | 'Counsellor';
  email: string;
  waive: boolean;
}

async function inviteReferee(student: Page, referee: Referee) {
  await student.getByRole('button', { name: 'Invite a referee' }).click();
  const dialog = student.getByRole('dialog', { name: 'Invite a referee' });
  await dialog.getByLabel('Referee', { exact: true }).selectOption({ label: referee.kind });
  await dialog.getByLabel('Full name').fill(referee.name);
  await dialog.getByLabel('Position').fill(referee.kind === 'Teacher' ? 'Biology teacher' : 'School counsellor');
  await dialog.getByLabel('School or organisation').fill('Lycée de Gisenyi');
  await dialog.getByLabel('Email address').fill(referee.email);
  await dialog.getByLabel('Language of the invitation').selectOption({ label: 'English' });
  if (referee.waive) await dialog.getByLabel('I waive my right to read this letter').check();
  await expectAccessibleAndFitting(student);
  await dialog.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(dialog).toBeHidden();
}

test('referees: the applicant invites two, one writes through the emailed link, staff read the letter', async ({
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

  // The institution asks for two referees, with one question for each, in the form builder.
  await page.goto(`/partner/forms/${institution.formId}`);
  await page.getByRole('button', { name: 'Add question to About you' }).click();
  const question = page.getByRole('dialog', { name: 'New question' });
  await question.getByLabel('Question type').selectOption({ label: 'Referees' });
  await question.getByLabel('Question (English)').fill('Your referees');
  await question.getByLabel('Applicants must answer').check();
  await expect(question.getByLabel('Number of referees')).toHaveValue('2');
  await expect(question.getByRole('checkbox', { name: 'Teacher' })).toBeChecked();
  await expect(question.getByRole('checkbox', { name: 'Employer' })).not.toBeChecked();
  await question.getByRole('button', { name: 'Add a question for referees' }).click();
  await question.getByLabel('Question 1 for referees (English)').fill('How long have you known the applicant?');
  await expectAccessibleAndFitting(page);
  await question.getByRole('button', { name: 'Add question' }).click();
  await expect(question).toBeHidden();
  await expect(page.getByText('Referees · required')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2')).toBeVisible();

  // The applicant starts the application and invites two referees; the first letter is waived.
  const student = await ownBrowser(browser, baseURL);
  await signInNewStudent(student, request, baseURL!);
  await student.goto(`/partners/${institution.partnerId}/application`);
  await student.getByRole('radio', { name: new RegExp(institution.programName) }).check();
  await student.getByRole('button', { name: 'Start application' }).click();
  await expect(student).toHaveURL(/\/application\/form$/);
  const referees = student.getByRole('group', { name: /Your referees/ });
  await expect(referees).toContainText('Invite 2 referees (Teacher, Counsellor)');
  const waived: Referee = { name: 'Jeanne Mukamana', kind: 'Teacher', email: uniqueEmail('teacher'), waive: true };
  const open: Referee = { name: 'Eric Niyonzima', kind: 'Counsellor', email: uniqueEmail('counsellor'), waive: false };
  await inviteReferee(student, waived);
  await inviteReferee(student, open);
  await expect(referees.getByText('2 of 2 referees invited')).toBeVisible();
  await expect(referees.getByRole('button', { name: 'Invite a referee' })).toBeHidden();
  const card = (referee: Referee) => referees.getByRole('listitem').filter({ hasText: referee.name });
  await expect(card(waived).getByText('Invited', { exact: true })).toBeVisible();
  await expect(card(waived).getByText('You waived the right to read this letter.')).toBeVisible();
  await expectAccessibleAndFitting(student);

  // The waived referee writes through the emailed link, in a browser with no account.
  const invitation = await latestEmail(request, waived.email, /asks you for a reference/);
  const link = linkIn(invitation.text, '/reference/');
  const referee = await ownBrowser(browser, baseURL);
  await writeReference(referee, link);

  // The link is used up: opening it again says so.
  await referee.goto(link);
  await expect(referee.getByRole('heading', { level: 1, name: 'This reference has already been sent' })).toBeVisible();
  await referee.context().close();

  // The applicant sees the letter arrived, not its content; then submits (letters may follow).
  await student.reload();
  await expect(card(waived).getByText('Letter received', { exact: true })).toBeVisible();
  await expect(card(waived).getByText('Read the letter')).toBeHidden();
  await expect(card(open).getByText('Invited', { exact: true })).toBeVisible();
  await student.getByLabel(/^Your full name/).fill('Amani Uwase');
  await student.getByRole('button', { name: 'Next' }).click();
  await student.getByLabel(/Why do you want to study with us/).fill('To study the lakes of my country.');
  await student.getByRole('button', { name: 'Continue to review' }).click();
  await expect(student.getByText('2 referees invited')).toBeVisible();
  await student.getByRole('button', { name: 'Submit application' }).click();
  await student
    .getByRole('dialog', { name: 'Submit your application?' })
    .getByRole('button', { name: 'Yes, submit' })
    .click();
  await expect(student.getByRole('heading', { level: 1, name: 'Application submitted' })).toBeVisible();
  const reference = (await student.locator('code').innerText()).trim();

  // Staff: the queue counts one letter of two; the application shows it, waived, with its answer.
  await page.goto('/partner/applications');
  const row = page.getByRole('row').filter({ hasText: reference });
  await expect(row.getByText('1 of 2 letters received')).toBeAttached();
  await row.getByRole('link').first().click();
  const panel = page.getByRole('region', { name: 'Referees' });
  await expect(panel.getByText('Jeanne Mukamana')).toBeVisible();
  await expect(panel.getByText('Three years: I taught her biology.')).toBeVisible();
  await expect(panel.getByText('A curious, rigorous student who leads her lab group.')).toBeVisible();
  await expectAccessibleAndFitting(page);
  await student.context().close();
});

/** The referee's page: who asks, the waiver, the institution's question, the letter; then sent. */
async function writeReference(referee: Page, link: string) {
  await referee.goto(link);
  await expect(referee.getByText('The applicant has waived the right to read your letter.')).toBeVisible();
  await expectAccessibleAndFitting(referee);
  await referee.getByLabel('How long have you known the applicant?').fill('Three years: I taught her biology.');
  await referee.getByLabel('Letter', { exact: true }).fill('A curious, rigorous student who leads her lab group.');
  await referee.getByRole('button', { name: 'Send the reference' }).click();
  await expect(referee.getByRole('heading', { level: 1, name: 'Thank you' })).toBeVisible();
}
