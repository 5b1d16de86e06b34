import { expect, expectNoAxeViolations, test, waitForApp } from './fixtures.ts';
import { LABELS, PASSWORD, registerInstitution, signIn, uniqueEmail } from './institutions.ts';
import { latestEmail, linkIn } from './mailbox.ts';

const DEMO_PASSWORD = 'Kaminuza#2025';

/**
 * The whole marketplace path of a new institution, from the UI alone: it registers, an admin approves
 * it, its staff publish the profile, and a student finds it, reads it and keeps it on their list.
 */
test('an institution signs up, is approved by an admin, publishes, and a student finds it', async ({
  page,
  request,
}) => {
  test.slow();
  const email = uniqueEmail('journey');

  // 1. The institution registers and verifies its email; it waits for review.
  await page.goto('/signup/partner');
  await waitForApp(page);
  const name = await registerInstitution(page, email, LABELS.en);
  await expect(page).toHaveURL(/\/signup\/partner\/pending$/);
  await page.goto(linkIn((await latestEmail(request, email, /verif/i)).text, '/auth/verify-email'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your institution is under review');
  await page.context().clearCookies();

  // 2. An admin approves it from the review queue; the contact is emailed.
  await page.goto('/login/admin');
  await waitForApp(page);
  await page.getByLabel('Email address').fill('demo.admin@kaminuza.example');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Admin dashboard' })).toBeVisible();
  await page.getByRole('tab', { name: /Awaiting approval/ }).click();
  const card = page.getByRole('article', { name });
  await expect(card.getByText('Rubavu, Rwanda')).toBeVisible();
  await expect(card.getByText('Registrar')).toBeVisible();
  await card.getByRole('button', { name: `Approve ${name}`, exact: true }).click();
  await page
    .getByRole('dialog', { name: `Approve ${name}?` })
    .getByRole('button', { name: 'Approve institution' })
    .click();
  await expect(page.getByText(`${name} is approved. Its contact has been emailed.`)).toBeVisible();
  await latestEmail(request, email, /approved/i);
  await page.context().clearCookies();

  // 3. Its staff now reach the dashboard, fill in the profile and publish it.
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/partner\/dashboard$/);
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await page.getByRole('link', { name: 'Edit the profile' }).click();
  await page.getByLabel('Description').fill('A lakeside institute teaching technology and business.');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  const published = page.getByRole('switch', { name: 'Published' });
  await expect(published).toHaveAttribute('aria-checked', 'false');
  await published.click();
  await expect(page.getByText('Students can find your institution.')).toBeVisible();
  await page.context().clearCookies();

  // 4. A student finds it by search and filter, opens each tab, adds it to the list and removes it.
  await signIn(page, 'demo.student@kaminuza.example', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole('navigation', { name: 'Student area' }).getByRole('link', { name: 'Explore' }).click();
  await page.getByRole('searchbox', { name: 'Search universities' }).fill(name);
  await expect(page.getByText('1 Result', { exact: true })).toBeVisible();
  const showFilters = page.getByRole('button', { name: 'Show filters' });
  if (await showFilters.isVisible()) await showFilters.click();
  await page.getByRole('checkbox', { name: 'Private', exact: true }).click();
  await expect(page).toHaveURL(/type=private/);
  await expect(page.getByText('1 Result', { exact: true })).toBeVisible();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const tablist = page.getByRole('tablist');
  for (const tab of ['Overview', 'Admissions', 'Academics', 'Costs', 'Campus Life']) {
    await tablist.getByRole('tab', { name: tab, exact: true }).click();
    await expect(tablist.getByRole('tab', { name: tab, exact: true })).toHaveAttribute('aria-selected', 'true');
  }
  await page.getByRole('tab', { name: 'Overview', exact: true }).click();
  await expect(page.getByRole('tabpanel')).toContainText('A lakeside institute teaching technology and business.');
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: `Add to list: ${name}` }).click();
  await expect(page.getByRole('button', { name: `Remove from list: ${name}` })).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: `Remove from list: ${name}` }).click();
  await expect(page.getByRole('button', { name: `Add to list: ${name}` })).toBeVisible();
});
