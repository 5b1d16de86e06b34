import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiData, chooseTheme, expect, expectAccessibleAndFitting, ownBrowser, test } from './fixtures.ts';
import { uniqueEmail } from './institutions.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { setUpReview, signInReadyInstitution } from './staff.ts';
import { signInNewStudent } from './students.ts';

/*
 * The referee's page (ADR 054) from the emailed link, without an account: it opens in the language the
 * applicant chose for the referee, takes a PDF letter, sends once and then refuses the link; staff read
 * what was sent beside the answers. The builder and the applicant's screens have their own test
 * (referees.spec.ts): here they are set up through the api.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** The institution's form with a referees question (one question for referees) added to its first section. */
async function addRefereesQuestion(staff: Page, partnerId: string, formId: string, origin: string) {
  const path = `/api/v1/partners/${partnerId}/forms/${formId}`;
  const form = await apiData<{
    name: string;
    description: string;
    cycle_id: string | null;
    program_id: string | null;
    version: number;
    sections: Array<{ questions: object[] }>;
  }>(await staff.request.get(path));
  form.sections[0]!.questions.push({
    id: 'references',
    order: form.sections[0]!.questions.length,
    type: 'referees',
    label: { en: 'Your referees' },
    help: {},
    required: true,
    count: 1,
    kinds: ['teacher', 'counsellor'],
    submit_before_letters: true,
    prompts: [
      { en: 'How long have you known the applicant?', fr: 'Depuis combien de temps connaissez-vous le candidat ?' },
    ],
  });
  const { name, description, cycle_id, program_id, sections, version } = form;
  await apiData(
    await staff.request.put(path, {
      headers: { origin },
      data: { name, description, cycle_id, program_id, sections, version },
    }),
  );
}

test('a referee writes in their language, uploads a PDF letter and sends it once; staff read it', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.slow();
  const origin = baseURL!;
  const institution = await signInReadyInstitution(page, request);
  await setUpReview(page, institution, { letter: '', rubric: [{ id: 'overall', name: 'Overall', weight: 1 }] }, origin);
  await addRefereesQuestion(page, institution.partnerId, institution.formId, origin);

  // The applicant starts an application and invites a teacher, in French, keeping the right to read.
  const student = await ownBrowser(browser, baseURL);
  await signInNewStudent(student, request, origin);
  const draft = await apiData<{ id: string; version: number }>(
    await student.request.post(`/api/v1/partners/${institution.partnerId}/application`, {
      headers: { origin },
      data: { program_id: institution.programId, campus_id: institution.campusId },
    }),
  );
  const email = uniqueEmail('referee');
  await apiData(
    await student.request.post(`/api/v1/applications/${draft.id}/referees`, {
      headers: { origin },
      data: {
        question_id: 'references',
        kind: 'teacher',
        name: 'Grace Uwase',
        title: 'Professeure de mathématiques',
        organization: 'Lycée de Gisenyi',
        email,
        waived: false,
        language: 'fr',
      },
    }),
  );
  const link = linkIn((await latestEmail(request, email, /./)).text, '/reference/');

  // The referee's page opens in French, says the applicant may read the letter.
  const referee = await ownBrowser(browser, baseURL);
  // Without transitions, a change to dark mode is checked done, not half done (styles.css).
  await referee.emulateMedia({ reducedMotion: 'reduce' });
  await referee.goto(link);
  await expect(referee.getByRole('heading', { level: 1, name: /^Référence pour / })).toBeVisible();
  await expect(referee).toHaveTitle('Demande de référence — Kaminuza');
  await expect(referee.getByText('Le candidat pourra lire votre lettre.')).toBeVisible();
  await expect(referee.getByRole('navigation')).toHaveCount(0);
  await expectAccessibleAndFitting(referee);
  await referee.screenshot({ path: test.info().outputPath('referee-light.png'), fullPage: true });

  // Switched to English by the referee; sending without an answer or a letter is refused on the page.
  await referee.getByRole('combobox', { name: 'Langue' }).selectOption('en');
  await expect(referee.getByRole('heading', { level: 1, name: /^Reference for / })).toBeVisible();
  await referee.getByRole('button', { name: 'Send the reference' }).click();
  await expect(referee.getByText('Answer this question.')).toBeVisible();
  await expect(referee.getByText('Write your letter or upload it as a PDF.')).toBeVisible();

  await referee
    .getByLabel('How long have you known the applicant?')
    .fill('Three years: I taught her mathematics in S4 to S6.');
  await referee.getByLabel('Upload the letter as a PDF').setInputFiles({
    name: 'Lettre de Grace.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(referee.getByText('PDF letter uploaded: Lettre de Grace.pdf')).toBeVisible();
  await expect(referee.getByText('Write your letter or upload it as a PDF.')).toBeHidden();
  await chooseTheme(referee, 'dark');
  await expect(referee.locator('html')).toHaveClass(/dark/);
  await expectAccessibleAndFitting(referee);
  await referee.screenshot({ path: test.info().outputPath('referee-dark.png'), fullPage: true });

  await referee.getByRole('button', { name: 'Send the reference' }).click();
  await expect(referee.getByRole('heading', { level: 1, name: 'Thank you' })).toBeVisible();
  await expectAccessibleAndFitting(referee);
  await referee.screenshot({ path: test.info().outputPath('referee-thanks-dark.png'), fullPage: true });

  // The link is used up.
  await referee.reload();
  await expect(referee.getByRole('heading', { level: 1, name: 'This reference has already been sent' })).toBeVisible();
  await referee.context().close();

  // The applicant submits; staff count the letter in the queue and read it beside the answers.
  const submitted = await apiData<{ id: string; reference: string }>(
    await student.request.post(`/api/v1/applications/${draft.id}/submit`, {
      headers: { origin, 'idempotency-key': `e2e-${randomBytes(8).toString('hex')}` },
      data: {
        version: draft.version,
        answers: { full_name: 'Amani Uwase', why: 'I want to study the lakes of my country.' },
      },
    }),
  );
  await student.context().close();
  await page.goto('/partner/applications');
  const row = page.getByRole('row').filter({ hasText: submitted.reference });
  await expect(row.getByText('1 of 1 letter received')).toBeAttached();
  await page.goto(`/partner/applications/${submitted.id}`);
  const referees = page.getByRole('region', { name: 'Referees' });
  await expect(referees.getByRole('heading', { name: 'Grace Uwase' })).toBeVisible();
  await expect(referees.getByText('Three years: I taught her mathematics in S4 to S6.')).toBeVisible();
  const download = referees.getByRole('link', { name: 'Download the PDF letter from Grace Uwase' });
  await expect(download).toHaveAttribute('download', 'Lettre de Grace.pdf');
  expect((await page.request.get((await download.getAttribute('href'))!)).headers()['content-type']).toBe(
    'application/pdf',
  );
  await expectAccessibleAndFitting(page);
  await referees.screenshot({ path: test.info().outputPath('staff-referees.png') });
});

test('a link that is not valid says so on a page of its own', async ({ page }) => {
  await page.goto('/reference/not-a-real-token-at-all');
  await expect(page.getByRole('heading', { level: 1, name: 'This link does not work' })).toBeVisible();
  await expectAccessibleAndFitting(page);
});
