import type { Page } from '@playwright/test';
import { chooseLanguage, expect, expectNoAxeViolations, test, waitForApp } from './fixtures.ts';
import { signInNewInstitution } from './staff.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The page fits the screen's width (360 px on the mobile project): nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('a new institution sets up a campus, a program and an admission cycle', async ({ page, request }) => {
  test.slow();
  await signInNewInstitution(page, request);
  await page.goto('/partner/dashboard');
  await waitForApp(page);

  // Programs, from the institution's navigation: nothing can be added before a campus exists.
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Programs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Programs and campuses' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Programs' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Add a campus first' })).toBeVisible();
  await expectNoAxeViolations(page);

  // A campus; the empty name is refused first.
  await page.getByRole('button', { name: 'Go to campuses' }).click();
  await expect(page).toHaveURL(/\?tab=campuses$/);
  await page.getByRole('button', { name: 'Add a campus' }).click();
  const campusDialog = page.getByRole('dialog', { name: 'Add a campus' });
  await campusDialog.getByRole('button', { name: 'Save campus' }).click();
  await expect(campusDialog.getByText('Name is required')).toBeVisible();
  await campusDialog.getByLabel('Campus name').fill('Rubavu Lakeside');
  await campusDialog.getByLabel('City').fill('Rubavu');
  await campusDialog.getByLabel('Country').selectOption('RW');
  await campusDialog.getByRole('button', { name: 'Save campus' }).click();
  await expect(campusDialog).toBeHidden();
  const campus = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Rubavu Lakeside' }) });
  await expect(campus.getByText('0 programs')).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  // A program offered there (the only campus is already chosen).
  await page.getByRole('tab', { name: 'Programs' }).click();
  await page.getByRole('button', { name: 'Add a program' }).click();
  const programDialog = page.getByRole('dialog', { name: 'Add a program' });
  await programDialog.getByRole('button', { name: 'Save program' }).click();
  await expect(programDialog.getByText('Name is required')).toBeVisible();
  await expectNoAxeViolations(page);
  await programDialog.getByLabel('Program name').fill('Software Engineering');
  await programDialog.getByLabel('Field of study').selectOption('technology');
  await programDialog.getByLabel('Amount').fill('1200');
  await programDialog.getByLabel('Currency').selectOption('USD');
  await expect(programDialog.getByRole('checkbox', { name: 'Rubavu Lakeside' })).toBeChecked();
  await programDialog.getByRole('button', { name: 'Save program' }).click();
  await expect(programDialog).toBeHidden();
  const program = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Software Engineering' }) });
  await expect(program.getByText('4 years')).toBeVisible();
  await expect(program.getByText('$1,200')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.getByRole('searchbox', { name: 'Search programs' }).fill('medicine');
  await expect(page.getByText('No program matches these filters.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search programs' }).fill('software');
  await expect(program).toBeVisible();

  // The program's only campus cannot be deleted.
  await page.getByRole('tab', { name: 'Campuses' }).click();
  await expect(campus.getByText('1 program')).toBeVisible();
  await page.getByRole('button', { name: 'Delete Rubavu Lakeside' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Rubavu Lakeside?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm.getByRole('alert')).toHaveText(
    'A program is offered only at this campus. Offer it at another campus first.',
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(campus).toBeVisible();

  // An admission cycle opening the program; closing before opening is refused first.
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Cycles' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admission cycles' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No admission cycles yet' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Add a cycle' }).click();
  const cycleDialog = page.getByRole('dialog', { name: 'Add an admission cycle' });
  await cycleDialog.getByLabel('Cycle name').fill('September intake');
  await cycleDialog.getByLabel('Opens on').fill(day(10));
  await cycleDialog.getByLabel('Closes on').fill(day(5));
  await cycleDialog.getByLabel('Status').selectOption('open');
  await cycleDialog.getByRole('button', { name: 'Save cycle' }).click();
  await expect(cycleDialog.getByText('The closing date must be after the opening date')).toBeVisible();
  await cycleDialog.getByLabel('Opens on').fill(day(-10));
  await cycleDialog.getByLabel('Closes on').fill(day(30));
  await cycleDialog.getByRole('checkbox', { name: 'Select all' }).check();
  await expect(cycleDialog.getByRole('checkbox', { name: 'Software Engineering (Undergraduate)' })).toBeChecked();
  await cycleDialog.getByRole('button', { name: 'Save cycle' }).click();
  await expect(cycleDialog).toBeHidden();
  const cycle = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'September intake' }) });
  await expect(cycle.getByText('Accepting applications')).toBeVisible();
  await expect(cycle.getByText('1 program open')).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  // Closing it stops applications, whatever the dates.
  await page.getByRole('button', { name: 'Edit September intake' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit the admission cycle' });
  await editDialog.getByLabel('Status').selectOption('closed');
  await editDialog.getByRole('button', { name: 'Save cycle' }).click();
  await expect(editDialog).toBeHidden();
  await expect(cycle.getByText('Not accepting applications')).toBeVisible();
  await expect(cycle.getByText('Closed', { exact: true })).toBeVisible();
});

test('the setup screens speak French', { tag: '@phone-only' }, async ({ page, request }) => {
  await signInNewInstitution(page, request);
  await page.goto('/partner/programs?tab=campuses');
  await waitForApp(page);
  await chooseLanguage(page, 'Français');
  await expect(page.getByRole('heading', { level: 1, name: 'Programmes et campus' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Campus' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Ajouter un campus' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ajouter un campus' });
  await dialog.getByLabel('Nom du campus').fill('Campus de Huye');
  await dialog.getByLabel('Ville').fill('Huye');
  await dialog.getByLabel('Pays').selectOption('RW');
  await dialog.getByRole('button', { name: 'Enregistrer le campus' }).click();
  await expect(page.getByRole('heading', { name: 'Campus de Huye' })).toBeVisible();
  await expect(page.getByText('0 programme', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/partner/cycles');
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions d’admission' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ajouter une session' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('staff state a program’s entry rules for WASSCE and KCSE side by side', async ({ page, request }) => {
  test.slow();
  await signInNewInstitution(page, request);
  await page.goto('/partner/programs?tab=campuses');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Add a campus' }).click();
  const campusDialog = page.getByRole('dialog', { name: 'Add a campus' });
  await campusDialog.getByLabel('Campus name').fill('Kisumu Campus');
  await campusDialog.getByLabel('City').fill('Kisumu');
  await campusDialog.getByLabel('Country').selectOption('KE');
  await campusDialog.getByRole('button', { name: 'Save campus' }).click();
  await expect(campusDialog).toBeHidden();

  await page.getByRole('tab', { name: 'Programs' }).click();
  await page.getByRole('button', { name: 'Add a program' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a program' });
  await dialog.getByLabel('Program name').fill('BSc Computer Science');
  await dialog.getByLabel('Amount').fill('900');
  await dialog.getByLabel('Currency').selectOption('KES');

  // WASSCE: five credits, Mathematics or Further Mathematics at C6, an aggregate the examination cannot have.
  await dialog.getByRole('button', { name: 'Add an examination' }).click();
  await dialog
    .getByRole('region', { name: 'New examination' })
    .getByRole('combobox', { name: 'Examination' })
    .selectOption('waec_wassce');
  const wassce = dialog.getByRole('region', { name: /^WASSCE/ });
  await wassce.getByLabel('At least this many results').fill('5');
  await wassce.getByLabel('Counting as').selectOption('credit');
  await wassce.getByRole('button', { name: 'Add a subject' }).click();
  await wassce.getByLabel('Subject', { exact: true }).selectOption('mathematics');
  await wassce.getByLabel('Or instead').selectOption('further_mathematics');
  await wassce.getByLabel('Minimum grade').selectOption('C6');
  await wassce.getByLabel('Aggregate needed').fill('80');
  await wassce.getByLabel('Sittings combined').selectOption('2');
  await expect(wassce.getByText('Lower is better: from 6 (best) to 54.')).toBeVisible();

  // KCSE beside it: mean grade C+ and Mathematics at C+.
  await dialog.getByRole('button', { name: 'Add an examination' }).click();
  await dialog
    .getByRole('region', { name: 'New examination' })
    .getByRole('combobox', { name: 'Examination' })
    .selectOption('knec_kcse');
  const kcse = dialog.getByRole('region', { name: /^KCSE/ });
  await kcse.getByLabel('Minimum class').selectOption('C+');
  await kcse.getByRole('button', { name: 'Add a subject' }).click();
  await kcse.getByLabel('Subject', { exact: true }).selectOption('mathematics');
  await kcse.getByLabel('Minimum grade').selectOption('C+');
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);

  // The api refuses the aggregate at its field; corrected, the program is saved.
  await dialog.getByRole('button', { name: 'Save program' }).click();
  await expect(wassce.getByText('Enter a figure within this examination’s range')).toBeVisible();
  await wassce.getByLabel('Aggregate needed').fill('24');
  await dialog.getByRole('button', { name: 'Save program' }).click();
  await expect(dialog).toBeHidden();

  // Opened again, the rules are as they were stated.
  await page.getByRole('button', { name: 'Edit BSc Computer Science' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the program' });
  const savedWassce = edit.getByRole('region', { name: /^WASSCE/ });
  await expect(savedWassce.getByLabel('At least this many results')).toHaveValue('5');
  await expect(savedWassce.getByLabel('Or instead')).toHaveValue('further_mathematics');
  await expect(savedWassce.getByLabel('Aggregate needed')).toHaveValue('24');
  await expect(savedWassce.getByLabel('Sittings combined')).toHaveValue('2');
  await expect(edit.getByRole('region', { name: /^KCSE/ }).getByLabel('Minimum class')).toHaveValue('C+');
});
