import type { Locator, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test, waitForApp } from './fixtures.ts';
import { signInNewInstitution } from './staff.ts';

/** Adds a question through the question dialog: type, English label, and what the type needs. */
async function addQuestion(
  page: Page,
  section: string,
  question: { type: string; label: string; required?: boolean; fill?: (dialog: Locator) => Promise<unknown> },
) {
  await page.getByRole('button', { name: `Add question to ${section}` }).click();
  const dialog = page.getByRole('dialog', { name: 'New question' });
  await dialog.getByLabel('Question type').selectOption({ label: question.type });
  await dialog.getByLabel('Question (English)').fill(question.label);
  if (question.required) await dialog.getByLabel('Applicants must answer').check();
  await question.fill?.(dialog);
  await dialog.getByRole('button', { name: 'Add question' }).click();
  await expect(dialog).toBeHidden();
}

/** Nothing wider than the screen (360 px on the mobile project). */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The question labels of a section, in order. */
const questionsOf = (page: Page, section: string) =>
  page.getByRole('list', { name: `Questions of ${section}` }).getByRole('listitem');

test('staff build a form: sections, questions of several types, reordering, save, preview in French', async ({
  page,
  request,
}) => {
  test.slow();
  await signInNewInstitution(page, request);
  await page.goto('/partner/dashboard');
  await waitForApp(page);

  // The forms list, with the default form every new institution starts with.
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Forms' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Application forms' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Forms' });
  await expect(list.getByRole('heading', { name: 'Application form' })).toBeVisible();
  await expect(list.getByText('5 sections, 10 questions')).toBeVisible();
  await expectNoAxeViolations(page);

  // A new form opens in the builder with one starter section.
  await page.getByRole('button', { name: 'New form' }).click();
  const create = page.getByRole('dialog', { name: 'New application form' });
  await create.getByLabel('Form name').fill('Masters 2027');
  await create.getByRole('button', { name: 'Create and open' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Masters 2027' })).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();

  const prefill = "Prefill from the applicant's profile";
  await addQuestion(page, 'Section 1', {
    type: 'Short text',
    label: 'Full name',
    required: true,
    fill: (dialog) => dialog.getByLabel(prefill).selectOption({ label: 'Preferred name' }),
  });
  await addQuestion(page, 'Section 1', {
    type: 'Long text',
    label: 'Why this programme?',
    fill: (dialog) => dialog.getByLabel('Word limit').fill('250'),
  });
  await addQuestion(page, 'Section 1', {
    type: 'Single choice',
    label: 'How did you hear about us?',
    fill: async (dialog) => {
      await dialog.getByLabel('Option 1 (English)').fill('Radio');
      await dialog.getByLabel('Option 2 (English)').fill('A friend');
    },
  });
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  // A second section, titled in English and French.
  await page.getByRole('button', { name: 'Add section' }).click();
  const sectionDialog = page.getByRole('dialog', { name: 'New section' });
  await sectionDialog.getByLabel('Title (English)').fill('Declaration');
  await sectionDialog.getByRole('tab', { name: 'French' }).click();
  await sectionDialog.getByLabel('Title (French)').fill('Déclaration');
  await sectionDialog.getByRole('button', { name: 'Add section' }).click();
  await expect(sectionDialog).toBeHidden();
  await addQuestion(page, 'Declaration', {
    type: 'Document',
    label: 'Passport copy',
    fill: async (dialog) => {
      await dialog.getByLabel('Document asked for').selectOption({ label: 'Passport' });
      // No profile detail fits a document question, so the prefill choice is not offered.
      await expect(dialog.getByLabel(prefill)).toHaveCount(0);
    },
  });
  await addQuestion(page, 'Declaration', {
    type: 'Yes or no',
    label: 'I confirm my answers are true',
    required: true,
    fill: async (dialog) => {
      await dialog.getByRole('tab', { name: 'French' }).click();
      await dialog.getByLabel('Question (French)').fill('Je confirme que mes réponses sont exactes');
    },
  });

  // Reordering with dnd-kit's keyboard controls: pick up, move down one, drop.
  await expect(questionsOf(page, 'Section 1')).toHaveText([/^Full name/, /^Why this programme\?/, /^How did you hear/]);
  const handle = page.getByRole('button', { name: 'Reorder Full name' });
  await handle.focus();
  // Each step waits for dnd-kit's announcement, so a key never lands before the previous one took effect.
  const announced = (text: string) => expect(page.getByRole('status').filter({ hasText: text })).toBeAttached();
  await page.keyboard.press('Space');
  await expect(handle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowDown');
  await announced('Full name moved to position 2.');
  await page.keyboard.press('Space');
  await announced('Full name dropped at position 2.');
  await expect(questionsOf(page, 'Section 1')).toHaveText([/^Why this programme\?/, /^Full name/, /^How did you hear/]);
  // … and with the buttons.
  await page.getByRole('button', { name: 'Move up: How did you hear about us?' }).click();
  await expect(questionsOf(page, 'Section 1')).toHaveText([/^Why this programme\?/, /^How did you hear/, /^Full name/]);
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2')).toBeVisible();

  // The order is what was saved.
  await page.reload();
  await waitForApp(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Masters 2027' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toHaveText([
    /Section 1:\s*Section 1/,
    /Section 2:\s*Declaration/,
  ]);
  await expect(questionsOf(page, 'Section 1')).toHaveText([/^Why this programme\?/, /^How did you hear/, /^Full name/]);
  await expect(questionsOf(page, 'Declaration')).toHaveText([/^Passport copy/, /^I confirm my answers are true/]);

  // The prefill was saved with its question; a type that cannot hold it drops it.
  await page.getByRole('button', { name: 'Edit question Full name' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit question' });
  await expect(edit.getByLabel(prefill)).toHaveValue('preferred_name');
  await edit.getByLabel('Question type').selectOption({ label: 'Date' });
  await expect(edit.getByLabel(prefill)).toHaveValue('');
  await expect(edit.getByLabel(prefill).getByRole('option')).toHaveText(["Don't prefill", 'Date of birth']);
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();

  // The preview in French, checked as a submission will be.
  await page.getByRole('tab', { name: 'Preview' }).click();
  await page.getByLabel('Preview language').selectOption('fr');
  const preview = page.getByRole('form', { name: 'Preview of the application form' });
  await expect(preview.getByRole('group', { name: 'Déclaration' })).toBeVisible();
  await expect(preview.getByRole('radiogroup', { name: /Je confirme que mes réponses sont exactes/ })).toBeVisible();
  await expect(preview.getByRole('combobox', { name: /Passport copy/ })).toBeDisabled();
  await preview.getByLabel(/Full name/).fill('Aline Uwase');
  await preview.getByRole('button', { name: 'Check answers' }).click();
  await expect(preview.getByText('Cette question demande une réponse')).toBeVisible();
  await expect(preview.getByText('1 question needs attention.')).toBeVisible();
  await preview.getByRole('radio', { name: 'Oui' }).check();
  await preview.getByRole('button', { name: 'Check answers' }).click();
  await expect(preview.getByText('Every answer is valid.')).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
});
