import { expect, expectNoAxeViolations, recordRenderEvent, test, waitForApp } from './fixtures.ts';
import { PASSWORD, uniqueEmail } from './institutions.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { signInNewInstitution } from './staff.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * An institution made ready to receive applications from the dashboard alone: the checklist leads its
 * Admin through a campus, a program, a current open cycle and a form for it, the fee and thresholds,
 * publishing; a colleague invited with one permission joins and finds the rest read-only. Each screen's
 * own details (errors, phones, languages) are in its own spec; this one checks they add up.
 */
test('an admin makes a new institution ready to receive applications, and a colleague joins with limited rights', async ({
  page,
  request,
  browser,
  baseURL,
  isMobile,
}) => {
  test.skip(isMobile, 'one long journey: the screens it crosses are each tested at 360 px in their own spec');
  test.slow();
  const { name } = await signInNewInstitution(page, request);
  await page.goto('/partner/dashboard');
  await waitForApp(page);
  const readiness = page.getByRole('region', { name: 'Ready to receive applications' });
  await expect(readiness.getByText('Not yet: 6 steps left.')).toBeVisible();
  await expectNoAxeViolations(page);

  // A campus and a program, from the checklist.
  await readiness.getByRole('link', { name: 'Add a campus' }).click();
  await page.getByRole('button', { name: 'Add a campus' }).click();
  const campusDialog = page.getByRole('dialog', { name: 'Add a campus' });
  await campusDialog.getByLabel('Campus name').fill('Rubavu Lakeside');
  await campusDialog.getByLabel('City').fill('Rubavu');
  await campusDialog.getByLabel('Country').selectOption('RW');
  await campusDialog.getByRole('button', { name: 'Save campus' }).click();
  await expect(campusDialog).toBeHidden();
  await page.getByRole('tab', { name: 'Programs' }).click();
  await page.getByRole('button', { name: 'Add a program' }).click();
  const programDialog = page.getByRole('dialog', { name: 'Add a program' });
  await programDialog.getByLabel('Program name').fill('Software Engineering');
  await programDialog.getByLabel('Field of study').selectOption('technology');
  await programDialog.getByLabel('Amount').fill('1200');
  await programDialog.getByRole('button', { name: 'Save program' }).click();
  await expect(programDialog).toBeHidden();

  // A cycle open now with the program, made the current one.
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Cycles' }).click();
  await page.getByRole('button', { name: 'Add a cycle' }).click();
  const cycleDialog = page.getByRole('dialog', { name: 'Add an admission cycle' });
  await cycleDialog.getByLabel('Cycle name').fill('September intake');
  await cycleDialog.getByLabel('Opens on').fill(day(-3));
  await cycleDialog.getByLabel('Closes on').fill(day(60));
  await cycleDialog.getByLabel('Status').selectOption('open');
  await cycleDialog.getByRole('checkbox', { name: 'Select all' }).check();
  await cycleDialog.getByRole('button', { name: 'Save cycle' }).click();
  await expect(cycleDialog).toBeHidden();
  await page.getByRole('button', { name: 'Make current: September intake' }).click();
  const cycle = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'September intake' }) });
  await expect(cycle.getByText('Current cycle')).toBeVisible();
  await expect(cycle.getByText('Accepting applications')).toBeVisible();

  // A form for that cycle: two sections, questions of several types.
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Forms' }).click();
  await page.getByRole('button', { name: 'New form' }).click();
  const create = page.getByRole('dialog', { name: 'New application form' });
  await create.getByLabel('Form name').fill('September 2027 application');
  await create.getByLabel('Admission cycle').selectOption({ label: 'September intake' });
  await create.getByRole('button', { name: 'Create and open' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'September 2027 application' })).toBeVisible();
  const addQuestion = async (section: string, type: string, label: string) => {
    await page.getByRole('button', { name: `Add question to ${section}` }).click();
    const dialog = page.getByRole('dialog', { name: 'New question' });
    await dialog.getByLabel('Question type').selectOption({ label: type });
    await dialog.getByLabel('Question (English)').fill(label);
    if (type === 'Single choice') {
      await dialog.getByLabel('Option 1 (English)').fill('Radio');
      await dialog.getByLabel('Option 2 (English)').fill('A friend');
    }
    await dialog.getByRole('button', { name: 'Add question' }).click();
    await expect(dialog).toBeHidden();
  };
  await addQuestion('Section 1', 'Long text', 'Why this programme?');
  await addQuestion('Section 1', 'Single choice', 'How did you hear about us?');
  await addQuestion('Section 1', 'Date', 'When did you finish school?');
  await page.getByRole('button', { name: 'Add section' }).click();
  const sectionDialog = page.getByRole('dialog', { name: 'New section' });
  await sectionDialog.getByLabel('Title (English)').fill('Declaration');
  await sectionDialog.getByRole('button', { name: 'Add section' }).click();
  await addQuestion('Declaration', 'Yes or no', 'I confirm my answers are true');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2')).toBeVisible();

  // The fee and the automatic-decision thresholds.
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Admissions' }).click();
  await page.getByRole('switch', { name: 'Accept automatically' }).check();
  await page.getByLabel('Auto-accept threshold (0–100)').fill('85');
  await page.getByRole('textbox', { name: 'Fee in USD' }).fill('30');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Changes saved.')).toBeVisible();

  // Published, the institution can receive applications.
  await page.goto('/partner/dashboard');
  await expect(readiness.getByText('Not yet: 1 step left.')).toBeVisible();
  await readiness.getByRole('link', { name: 'Publish the profile' }).click();
  await page.getByRole('switch', { name: 'Published' }).click();
  await expect(page.getByRole('switch', { name: 'Published' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(readiness.getByText('Students can apply now.')).toBeVisible();
  await expect(readiness.getByText('Current cycle: September intake')).toBeVisible();

  // A colleague invited to build forms only joins from the email and signs in.
  await page.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Team' }).click();
  await page.getByRole('tab', { name: 'Invitations' }).click();
  await page.getByRole('button', { name: 'Invite someone' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite someone' });
  const email = uniqueEmail('forms-officer');
  await invite.getByLabel('Email', { exact: true }).fill(email);
  await invite.getByLabel('First name').fill('Aline');
  await invite.getByLabel('Last name').fill('Uwase');
  await invite.getByLabel('Job title').fill('Admissions officer');
  await invite.getByRole('checkbox', { name: 'Application forms' }).check();
  await invite.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();

  const context = await browser.newContext({ baseURL });
  const colleague = await context.newPage();
  await recordRenderEvent(colleague);
  await colleague.goto(linkIn((await latestEmail(request, email, /invited/i)).text, '/signup/partner/invitation'));
  await waitForApp(colleague);
  await expect(colleague.getByText(name, { exact: true })).toBeVisible();
  await colleague.getByLabel('Password').fill(PASSWORD);
  await colleague.getByRole('checkbox', { name: 'I accept the terms of use and the privacy policy' }).check();
  await colleague.getByRole('button', { name: 'Join' }).click();
  await expect(colleague).toHaveURL(/\/partner\/dashboard$/);
  await expect(colleague.getByText('Students can apply now.')).toBeVisible();

  // Forms are theirs to edit; programs, settings and API keys only to read.
  await colleague.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Programs' }).click();
  await expect(colleague.getByRole('heading', { name: 'Software Engineering' })).toBeVisible();
  await expect(colleague.getByRole('button', { name: 'Add a program' })).toHaveCount(0);
  await colleague.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Settings' }).click();
  await expect(colleague.getByText('You can see these settings but not change them.')).toBeVisible();
  await expect(colleague.getByRole('tab', { name: 'API keys' })).toHaveCount(0);
  await expect(colleague.getByRole('combobox', { name: 'Time zone' })).toBeDisabled();
  await expectNoAxeViolations(colleague);
  await colleague.getByRole('navigation', { name: 'Institution area' }).getByRole('link', { name: 'Forms' }).click();
  await expect(colleague.getByRole('button', { name: 'New form' })).toBeVisible();
  await context.close();
});
