import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, openMenuIfCollapsed, test, waitForApp } from './fixtures.ts';
import { signIn } from './institutions.ts';
import { signInNewInstitution } from './staff.ts';

/** Axe finds nothing, and the page fits the screen's width (360 px on the mobile project). */
async function expectAccessibleAndFitting(page: Page) {
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test('an institution sets its languages, theme and admissions, and makes and revokes an API key', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { name } = await signInNewInstitution(page, request);
  await page.goto('/partner/dashboard');
  await waitForApp(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // Settings, from the navigation (folded into the menu on phones).
  await openMenuIfCollapsed(page);
  await page
    .getByRole('navigation', { name: 'Institution area' })
    .getByRole('link', { name: 'Settings' })
    .locator('visible=true')
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  // The phone menu stays open over the page after following a link in it.
  const menu = page.locator('header details');
  if (await menu.evaluate((element: HTMLDetailsElement) => element.open)) await menu.locator('summary').click();
  const tabs = page.getByRole('tablist', { name: 'Settings sections' });

  // General: time zone and languages.
  await page.getByRole('checkbox', { name: 'French' }).check();
  await page.getByRole('combobox', { name: 'Default language' }).selectOption('fr');
  await page.getByRole('combobox', { name: 'Time zone' }).selectOption('Africa/Kigali');
  await expect(
    page
      .getByText('Your admission cycles could not be loaded')
      .or(page.getByRole('combobox', { name: 'Current cycle' })),
  ).toBeVisible();
  await expectAccessibleAndFitting(page);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Changes saved.')).toBeVisible();

  // Theme: a new primary colour shows in the live preview at once.
  await tabs.getByRole('tab', { name: 'Theme' }).click();
  await expect(page).toHaveURL(/tab=theme/);
  const preview = page.getByRole('region', { name: 'Live preview' });
  // The band (the name shows again above the form's sample, in the colour's readable shade).
  const band = preview.getByText(name, { exact: true }).first().locator('xpath=../..');
  await expect(band).toHaveCSS('background-color', 'rgb(29, 78, 216)');
  await page.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#7c2d12');
  await expect(band).toHaveCSS('background-color', 'rgb(124, 45, 18)');
  await expectAccessibleAndFitting(page);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Changes saved.')).toBeVisible();

  // The application form's preview is marked with the new colour; its buttons keep the app's own (ADR 029).
  await page.goto('/partner/forms');
  await page.getByRole('link', { name: 'Edit Application form' }).click();
  await page.getByRole('tab', { name: 'Preview' }).click();
  const form = page.getByRole('form', { name: 'Preview of the application form' });
  await expect(form).toHaveCSS('border-top-color', 'rgb(124, 45, 18)');
  await expect(page.getByRole('button', { name: 'Check answers' })).toHaveCSS('background-color', 'rgb(15, 94, 77)');
  await page.goto('/partner/settings');

  // Admissions: crossed thresholds are refused first, then a fee and thresholds that make sense are saved.
  await tabs.getByRole('tab', { name: 'Admissions' }).click();
  await page.getByRole('switch', { name: 'Accept automatically' }).check();
  await page.getByRole('switch', { name: 'Reject automatically' }).check();
  await page.getByLabel('Auto-accept threshold (0–100)').fill('50');
  await page.getByLabel('Auto-reject threshold (0–100)').fill('60');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('The auto-reject threshold must be below the auto-accept threshold')).toBeVisible();
  await page.getByLabel('Auto-reject threshold (0–100)').fill('35');
  await page.getByLabel('Auto-accept threshold (0–100)').fill('85');
  // The fee per currency: the default 100 USD becomes 25,000 RWF, payable by card or MTN MoMo.
  await page.getByRole('combobox', { name: 'Currency 1' }).selectOption('RWF');
  await page.getByRole('textbox', { name: 'Fee in RWF' }).fill('25000');
  await page.getByRole('group', { name: 'Ways to pay in RWF' }).getByLabel('MTN MoMo').check();
  await page.getByRole('button', { name: 'Add a stage' }).click();
  await page.getByLabel('Stage 1 name').fill('Interview');
  await expectAccessibleAndFitting(page);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Changes saved.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Fee in RWF' })).toHaveValue('25000');
  await expect(page.getByRole('group', { name: 'Ways to pay in RWF' }).getByLabel('MTN MoMo')).toBeChecked();
  await expect(page.getByLabel('Auto-accept threshold (0–100)')).toHaveValue('85');
  await expect(page.getByLabel('Auto-reject threshold (0–100)')).toHaveValue('35');
  await expect(page.getByRole('combobox', { name: 'Currency 1' })).toHaveValue('RWF');
  await expect(page.getByLabel('Stage 1 name')).toHaveValue('Interview');
  await tabs.getByRole('tab', { name: 'General' }).click();
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Africa/Kigali');
  await expect(page.getByRole('checkbox', { name: 'French' })).toBeChecked();
  await tabs.getByRole('tab', { name: 'Theme' }).click();
  await expect(page.getByRole('textbox', { name: 'Primary colour', exact: true })).toHaveValue('#7c2d12');

  // API keys: made, copied, used, revoked.
  await tabs.getByRole('tab', { name: 'API keys' }).click();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  await expect(page.getByRole('link', { name: /API documentation/ })).toHaveAttribute('href', '/api/docs');
  await expectAccessibleAndFitting(page);
  await page.getByRole('button', { name: 'Create an API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByLabel('Key name').fill('Student information system');
  await dialog.getByRole('checkbox', { name: /Read applications/ }).check();
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('It will not be shown again.')).toBeVisible();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(/^kz_[a-z0-9]{8}_/);
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 3_000 });
  await expectAccessibleAndFitting(page);

  const list = page.getByRole('list', { name: 'Your API keys' });
  await expect(list.getByRole('heading', { name: 'Student information system' })).toBeVisible();
  await expect(list.getByText(key)).toHaveCount(0);

  // `request` carries the demo admin's cookies: only the key may count.
  const call = () => request.get('/api/v1/partner-api/submissions', { headers: { authorization: `Bearer ${key}` } });
  const answered = await call();
  expect(answered.status()).toBe(200);
  expect(await answered.json()).toEqual({ data: { items: [], next_cursor: null } });

  await list.getByRole('button', { name: 'Revoke Student information system' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(list.getByText('Revoked', { exact: true })).toBeVisible();
  expect((await call()).status()).toBe(401);
});

test("a student sees an institution's own theme on its page, readable", async ({ page, request }) => {
  const { partnerId, name } = await signInNewInstitution(page, request);
  const headers = { origin: new URL(page.url()).origin };
  const settings = (await (await page.request.get(`/api/v1/partners/${partnerId}/settings`)).json()) as {
    data: { theme: { colors: Record<string, string> } };
  };
  const theme = settings.data.theme;
  // Pale text on a pale page would fail AA: the page must fall back to a readable text colour.
  const themed = await page.request.put(`/api/v1/partners/${partnerId}/settings/theme`, {
    headers,
    data: { ...theme, colors: { ...theme.colors, primary: '#7c2d12', text: '#e2e8f0' } },
  });
  expect(themed.status()).toBe(200);
  const published = await page.request.patch(`/api/v1/partners/${partnerId}/profile`, {
    headers,
    data: { published: true },
  });
  expect(published.status()).toBe(200);
  await page.context().clearCookies();

  await signIn(page, 'demo.student@kaminuza.example', 'Kaminuza#2025');
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(`/partners/${partnerId}`);
  const heading = page.getByRole('heading', { level: 1, name });
  await expect(heading).toBeVisible();
  await expect(heading.locator('xpath=../..')).toHaveCSS('background-color', 'rgb(124, 45, 18)');
  await expect(page.getByRole('article')).not.toHaveCSS('color', 'rgb(226, 232, 240)');
  await expectAccessibleAndFitting(page);
});
