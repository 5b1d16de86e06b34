import type { Page } from '@playwright/test';
import { apiData, expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { setUpReview, signInReadyInstitution, submitApplication, type ReadyInstitution } from './staff.ts';
import { signInNewStudent } from './students.ts';

/*
 * National examinations and eligibility (issue 25), as the people using them would: an applicant enters
 * WASSCE results and reads whether they meet a program's entry requirements before applying; staff sort
 * the queue by eligibility and verify a result, which the applicant can then no longer change.
 */

/** The program's entry rules for WASSCE, set by the institution's Admin through the api (the dialog has its own test). */
async function wassceRules(staff: Page, institution: ReadyInstitution, baseURL: string) {
  await apiData(
    await staff.request.put(`/api/v1/partners/${institution.partnerId}/programs/${institution.programId}`, {
      headers: { origin: baseURL },
      data: {
        name: institution.programName,
        level: 'undergraduate',
        field: 'natural_sciences',
        duration_months: 48,
        language: 'en',
        tuition_amount: 1800,
        tuition_currency: 'USD',
        requirements: '',
        entry_rules: {
          exams: [
            {
              exam: 'waec_wassce',
              min_standing: { standing: 'credit', count: 5 },
              subjects: [{ any_of: ['mathematics', 'further_mathematics'], min_grade: 'C6' }],
              min_aggregate: 24,
            },
          ],
        },
        seats: 60,
        campus_ids: [institution.campusId],
      },
    }),
  );
}

const WASSCE = [
  ['English Language', 'B3'],
  ['Mathematics', 'C6'],
  ['Integrated Science', 'B2'],
  ['Physics', 'A1'],
  ['Chemistry', 'C4'],
  ['Biology', 'C5'],
] as const;

test('an applicant enters WASSCE results and sees their eligibility; staff sort by it and verify the result', async ({
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
    { letter: 'Dear {student_name}', rubric: [{ id: 'academic', name: 'Academic record', weight: 1 }] },
    baseURL!,
  );
  await wassceRules(page, institution, baseURL!);

  // The applicant enters their WASSCE results on the Education tab, subjects typed from the list.
  const student = await ownBrowser(browser, baseURL);
  await signInNewStudent(student, request, baseURL!);
  await student.goto('/profile?tab=education');
  await student.getByRole('button', { name: 'Add examination results' }).click();
  const form = student.getByRole('form', { name: 'New examination results' });
  await form.getByRole('combobox', { name: 'Examination' }).selectOption('waec_wassce');
  await form.getByRole('textbox', { name: 'Year sat' }).fill('2024');
  for (const [index, [subject, grade]] of WASSCE.entries()) {
    if (index >= 3) await form.getByRole('button', { name: 'Add a subject' }).click();
    await form.getByRole('combobox', { name: `Subject ${index + 1}` }).fill(subject);
    await form.getByRole('combobox', { name: `Grade ${index + 1}` }).selectOption(grade);
  }
  await form.getByRole('button', { name: 'Save results' }).click();
  await expect(student.getByText('Examination results added.')).toBeVisible();
  // WASSCE's aggregate: English, Mathematics, Integrated Science, then the best three others.
  await expect(student.getByText('Aggregate: 21')).toBeVisible();

  // Explore: "programs I meet the requirements for" keeps the university.
  await student.goto(`/partners?q=${encodeURIComponent(institution.name)}`);
  // (Other tests' institutions share the first words of its name: the search may list them too.)
  await expect(student.getByRole('heading', { name: institution.name })).toBeVisible();
  // On a phone the filters are behind a button.
  const showFilters = student.getByRole('button', { name: 'Show filters' });
  if (await showFilters.isVisible()) await showFilters.click();
  // The address changes in a transition: the box shows checked once the new address renders.
  const eligibleOnly = student.getByRole('checkbox', { name: /^Programs I meet the requirements for/ });
  await eligibleOnly.click();
  await expect(student).toHaveURL(/eligible=true/);
  await expect(eligibleOnly).toBeChecked();
  await expect(student.getByRole('heading', { name: institution.name })).toBeVisible();

  // Before applying: the university's Academics tab says, program by program, with each rule.
  await student.goto(`/partners/${institution.partnerId}`);
  await student.getByRole('tab', { name: 'Academics' }).click();
  const program = student.getByRole('listitem').filter({ hasText: institution.programName });
  await expect(program.getByText('You meet the entry requirements')).toBeVisible();
  await expect(
    program.getByText('Mathematics (Core) or Further Mathematics: C6 or better needed, you have C6'),
  ).toBeVisible();
  await expect(program.getByText('Aggregate: 24 or better needed, you have 21')).toBeVisible();
  await expectAccessibleAndFitting(student);

  // And on the start screen, where the program is chosen before paying.
  await student.goto(`/partners/${institution.partnerId}/application`);
  await expect(student.getByText('You meet the entry requirements').first()).toBeVisible();
  // And again on the form's Review step.
  await student.getByRole('button', { name: 'Start application' }).click();
  await student.getByRole('button', { name: /Review & submit/ }).click();
  const requirements = student.getByRole('region', { name: 'Entry requirements' });
  await expect(requirements.getByText('You meet the entry requirements')).toBeVisible();
  await expect(requirements.getByText('Credits: at least 5 needed, you have 6')).toBeVisible();
  const strong = await submitApplication(student, institution, baseURL!);

  // A second applicant whose Mathematics is below the requirement.
  const weakStudent = await ownBrowser(browser, baseURL);
  await signInNewStudent(weakStudent, request, baseURL!);
  await apiData(
    await weakStudent.request.post('/api/v1/students/me/exam-sittings', {
      headers: { origin: baseURL! },
      data: {
        exam: 'waec_wassce',
        year: 2024,
        results: [
          { subject: 'english_language', grade: 'B3' },
          { subject: 'mathematics', grade: 'D7' },
          { subject: 'integrated_science', grade: 'B2' },
          { subject: 'physics', grade: 'B3' },
          { subject: 'chemistry', grade: 'C4' },
          { subject: 'biology', grade: 'C5' },
        ],
      },
    }),
  );
  // The university's Academics tab tells them why not.
  await weakStudent.goto(`/partners/${institution.partnerId}`);
  await weakStudent.getByRole('tab', { name: 'Academics' }).click();
  const notMet = weakStudent.getByRole('listitem').filter({ hasText: institution.programName });
  await expect(notMet.getByText('You do not meet the entry requirements')).toBeVisible();
  await expect(
    notMet.getByText('Mathematics (Core) or Further Mathematics: C6 or better needed, you have D7'),
  ).toBeVisible();
  const weak = await submitApplication(weakStudent, institution, baseURL!);
  // Explore does not offer the university to them under "programs I meet the requirements for".
  await weakStudent.goto(`/partners?eligible=true&q=${encodeURIComponent(institution.name)}`);
  await expect(weakStudent.getByRole('status').filter({ hasText: /Results?$/ })).toBeVisible();
  await expect(weakStudent.getByRole('heading', { name: institution.name })).toHaveCount(0);

  // Staff sort the queue by eligibility: the eligible applicant first.
  await page.goto('/partner/applications');
  await expect(page.getByText('2 applications', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: /^Eligibility/ }).click();
  await expect(page).toHaveURL(/sort=eligibility/);
  const rows = page.getByRole('row');
  await expect(rows.nth(1)).toContainText(strong.reference);
  await expect(rows.nth(1)).toContainText('Eligible');
  await expect(rows.nth(2)).toContainText(weak.reference);
  await expect(rows.nth(2)).toContainText('Not eligible');
  await page.getByText('Filters', { exact: true }).click();
  await page.getByLabel('Eligibility').selectOption({ label: 'Not eligible' });
  await expect(page.getByText('1 application', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: weak.reference }).click();

  await page.getByRole('tab', { name: 'Entry requirements' }).click();
  await expect(page.getByText('Does not meet the entry requirements')).toBeVisible();
  await expect(
    page.getByText('Mathematics (Core) or Further Mathematics: C6 or better needed, the applicant has D7'),
  ).toBeVisible();

  // The strong applicant's result, verified against their document.
  await page.goto(`/partner/applications/${strong.id}?tab=eligibility`);
  await page.getByRole('button', { name: /^Verify WASSCE/ }).click();
  await page.getByRole('button', { name: 'Verify the results' }).click();
  await expect(page.getByText(`Verified by ${institution.name}`)).toBeVisible();
  await expectAccessibleAndFitting(page);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByText('Examination result verified')).toBeVisible();

  // The applicant sees it verified, and can no longer change it.
  await student.goto('/profile?tab=education');
  const card = student.getByRole('article', { name: /^WASSCE/ });
  await expect(card.getByText(`Verified by ${institution.name}`)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Edit' })).toHaveCount(0);
});
