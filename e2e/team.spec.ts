import type { Page } from '@playwright/test';
import { chooseLanguage, expect, expectNoAxeViolations, recordRenderEvent, test, waitForApp } from './fixtures.ts';
import { PASSWORD, signIn, uniqueEmail } from './institutions.ts';
import { latestEmail, linkIn } from './mailbox.ts';
import { signInNewInstitution } from './staff.ts';

/** Usable at 360 px: nothing wider than the screen. */
async function expectNoHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** Picks the language, then folds the phone header menu the switcher lives in, so it covers nothing. */
async function switchLanguage(page: Page, label: 'Français' | 'Kinyarwanda') {
  await chooseLanguage(page, label);
  const summary = page.locator('header summary');
  if (await summary.isVisible()) {
    const open = await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open);
    if (open) await summary.click();
  }
}

/**
 * The team of a new institution, from the UI: its Admin invites a colleague with one permission, the
 * colleague joins from the emailed link in their own browser, sees the team without edit controls, is
 * deactivated by the Admin and shut out at once; the Admin then organises a team.
 */
test('an admin invites a colleague who joins, then deactivates them and creates a team', async ({
  page,
  request,
  browser,
  baseURL,
  viewport,
  isMobile,
  hasTouch,
}) => {
  test.slow();
  await signInNewInstitution(page, request);

  // 1. The Admin opens the Team page and invites a colleague who may only build forms.
  await page.goto('/partner/team');
  await waitForApp(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: /Diane Mukeshimana/ })).toBeVisible();
  await expect(page.getByText('Primary contact', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);

  await page.getByRole('tab', { name: 'Invitations' }).click();
  await expect(page).toHaveURL(/\?tab=invitations$/);
  await expect(page.getByText(/No invitations yet/)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Invite someone' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite someone' });
  const email = uniqueEmail('colleague');
  await invite.getByLabel('Email', { exact: true }).fill(email);
  await invite.getByLabel('First name').fill('Aline');
  await invite.getByLabel('Last name').fill('Uwase');
  await invite.getByLabel('Job title').fill('Admissions officer');
  await invite.getByRole('checkbox', { name: 'Application forms' }).check();
  await expectNoAxeViolations(page);
  await invite.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  const sent = page.getByRole('listitem').filter({ hasText: email });
  await expect(sent.getByText('Waiting')).toBeVisible();
  await expectNoHorizontalScroll(page);

  // 2. The colleague opens the emailed link in their own browser and joins.
  const link = linkIn((await latestEmail(request, email, /invited/i)).text, '/signup/partner/invitation');
  const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch });
  const colleague = await context.newPage();
  await recordRenderEvent(colleague);
  await colleague.goto(link);
  await waitForApp(colleague);
  await expect(colleague.getByRole('heading', { level: 1, name: 'Join your institution' })).toBeVisible();
  await expect(colleague.getByText(email)).toBeVisible();
  await expect(colleague.getByText('Admissions officer')).toBeVisible();
  await expect(colleague.getByLabel('First name')).toHaveValue('Aline');
  await expectNoAxeViolations(colleague);
  await expectNoHorizontalScroll(colleague);
  await colleague.getByLabel('Password').fill(PASSWORD);
  await colleague.getByRole('checkbox', { name: 'I accept the terms of use and the privacy policy' }).check();
  await colleague.getByRole('button', { name: 'Join' }).click();
  await expect(colleague).toHaveURL(/\/partner\/dashboard$/);

  // As a member without manage_team, the Team page shows the team but no controls.
  await colleague.goto('/partner/team');
  await waitForApp(colleague);
  await expect(colleague.getByRole('heading', { level: 3, name: /Aline Uwase/ })).toBeVisible();
  await expect(colleague.getByRole('tab', { name: 'Teams' })).toBeVisible();
  await expect(colleague.getByRole('tab', { name: 'Invitations' })).toHaveCount(0);
  await expect(colleague.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expectNoAxeViolations(colleague);

  // 3. The Admin sees the invitation accepted, then deactivates the colleague.
  await page.reload();
  await waitForApp(page);
  await expect(sent.getByText('Accepted')).toBeVisible();
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByRole('button', { name: 'Edit Aline Uwase' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Aline Uwase' });
  await expect(edit.getByRole('checkbox', { name: 'Application forms' })).toBeChecked();
  await expectNoAxeViolations(page);
  await edit.getByRole('switch', { name: 'Active' }).uncheck();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Changes to Aline Uwase saved.')).toBeVisible();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Aline Uwase' }) });
  await expect(card.getByText('Inactive')).toBeVisible();

  // The colleague's session ended with it: their next page asks them to sign in, and signing in again
  // shows where they stand.
  await colleague.goto('/partner/dashboard');
  await expect(colleague).toHaveURL(/\/login$/);
  await signIn(colleague, email, PASSWORD);
  await expect(colleague.getByRole('heading', { level: 1, name: 'Your access has been deactivated' })).toBeVisible();
  await expectNoAxeViolations(colleague);
  await context.close();

  // 4. The Admin creates a team and puts themselves in it.
  await page.getByRole('tab', { name: 'Teams' }).click();
  await expect(page.getByText(/No teams yet/)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create a team' }).click();
  const create = page.getByRole('dialog', { name: 'Create a team' });
  await create.getByLabel('Team name').fill('Admissions committee');
  await create.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Team Admissions committee created.')).toBeVisible();
  await page.getByRole('button', { name: 'Choose members of Admissions committee' }).click();
  const choose = page.getByRole('dialog', { name: 'Members of Admissions committee' });
  await choose.getByRole('checkbox', { name: 'Diane Mukeshimana' }).check();
  await choose.getByRole('button', { name: 'Save' }).click();
  const team = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Admissions committee' }) });
  await expect(team.getByText(/1 member: Diane Mukeshimana/)).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);

  await page.getByRole('tab', { name: 'Join requests' }).click();
  await expect(page.getByText('No one is waiting to join.')).toBeVisible();
  await expectNoAxeViolations(page);
});

test(
  'a link that is not a waiting invitation says so and leads to sign-in',
  { tag: '@desktop-only' },
  async ({ page }) => {
    await page.goto('/signup/partner/invitation?token=not-a-real-token');
    await waitForApp(page);
    await expect(page.getByRole('heading', { level: 1, name: 'This invitation cannot be used' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to sign-in' })).toBeVisible();
    await expectNoAxeViolations(page);
  },
);

test('the Team page speaks French and Kinyarwanda', { tag: '@phone-only' }, async ({ page, request }) => {
  await signInNewInstitution(page, request);
  await page.goto('/partner/team?tab=teams');
  await waitForApp(page);
  await switchLanguage(page, 'Français');
  await expect(page.getByRole('heading', { level: 1, name: 'Équipe' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Demandes d’adhésion' })).toBeVisible();
  await expect(page.getByText(/Aucune équipe pour l’instant/)).toBeVisible();
  await expectNoAxeViolations(page);

  await switchLanguage(page, 'Kinyarwanda');
  await page.getByRole('tab', { name: 'Ubutumire' }).click();
  await page.getByRole('button', { name: 'Tumira umuntu' }).click();
  const invite = page.getByRole('dialog', { name: 'Tumira umuntu' });
  await expect(invite.getByRole('checkbox', { name: 'Uburenganzira bwose' })).toBeVisible();
  // An empty form is refused with the translated messages, and nothing is sent.
  await invite.getByRole('button', { name: 'Ohereza ubutumire' }).click();
  await expect(invite.getByLabel('Umwanya w’akazi')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
});
