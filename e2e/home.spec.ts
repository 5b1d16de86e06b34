import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { signInNewStudent } from './students.ts';

test('a student’s home shows their completion, next steps and shortcuts that work', async ({
  page,
  request,
  baseURL,
}) => {
  test.slow();
  await signInNewStudent(page, request, baseURL!);
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Lina/);

  // Onboarded, with no documents yet: uploading them is the next step, and the profile lists what is missing.
  await expect(page.getByRole('heading', { name: 'Next steps' })).toBeVisible();
  await expect(page.getByText(/^Upload your documents: Transcript, Test scores/)).toBeVisible();
  await expect(page.getByText(/^Your profile is \d+% complete$/)).toBeVisible();
  await page.getByText(/^Still missing/).click();
  await expect(page.getByText('Document: Passport', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await page.getByRole('link', { name: /^Upload documents/ }).click();
  await expect(page).toHaveURL(/\/profile\?tab=documents$/);

  const shortcuts = [
    ['Explore universities', /\/partners$/],
    ['My applications', /\/application$/],
    ['Get support', /\/support$/],
  ] as const;
  for (const [name, url] of shortcuts) {
    await page.goto('/home');
    await page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link', { name }).click();
    await expect(page).toHaveURL(url);
  }
});
