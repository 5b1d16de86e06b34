import { readFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { signInNewStudent, signUpNewStudent, STUDENT_PASSWORD } from './students.ts';

/** The text of one entry of a zip. */
function entryText(bytes: Buffer, name: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        });
      });
      zip.on('end', () => resolve(null));
      zip.readEntry();
    });
  });
}

test('a student downloads their data, schedules the deletion of their account, cancels it and schedules it again', async ({
  page,
  request,
  baseURL,
}) => {
  test.slow();
  const email = await signInNewStudent(page, request, baseURL!);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section).toBeVisible();

  const download = page.waitForEvent('download');
  await section.getByRole('link', { name: 'Download my data' }).click();
  const file = await (await download).path();
  const data = await entryText(await readFile(file), 'data.json');
  expect(data).not.toBeNull();
  expect((JSON.parse(data!) as { account: { email: string } }).account.email).toBe(email);

  const schedule = async (password: string) => {
    await section.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toContainText('14 days');
    await dialog.getByLabel('Current password').fill(password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    return dialog;
  };
  const wrong = await schedule('Not#MyPassw0rd');
  await expect(wrong.getByText('The password is not correct.')).toBeVisible();
  await expectNoAxeViolations(page);
  await wrong.getByLabel('Current password').fill(STUDENT_PASSWORD);
  await wrong.getByRole('button', { name: 'Delete my account' }).click();
  await expect(wrong).toBeHidden();
  await expect(section.getByText(/^Your account will be deleted on .+\. Until then you can cancel\.$/)).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // Still scheduled after a reload; cancelling keeps the account.
  await page.reload();
  await section.getByRole('button', { name: 'Cancel deletion' }).click();
  await expect(section.getByText('The deletion is cancelled. Your account stays.')).toBeVisible();

  await schedule(STUDENT_PASSWORD);
  await expect(section.getByText(/^Your account will be deleted on /)).toBeVisible();
});

test('a student who has not finished onboarding reaches settings from it, downloads their data and deletes the account', async ({
  page,
  request,
  baseURL,
}) => {
  test.slow();
  const email = await signUpNewStudent(page, request, baseURL!);
  await expect(page.getByRole('heading', { name: 'Set up your profile' })).toBeVisible();
  // The pages onboarding still closes are not offered; the rest of the student area sends back to it.
  const nav = page.getByRole('navigation', { name: 'Student area' }).last();
  await expect(nav.getByRole('link', { name: 'Explore' })).toHaveCount(0);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/onboarding\/student$/);

  await page.getByRole('main').getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section).toBeVisible();
  await expectNoAxeViolations(page);

  const download = page.waitForEvent('download');
  await section.getByRole('link', { name: 'Download my data' }).click();
  const data = await entryText(await readFile(await (await download).path()), 'data.json');
  expect((JSON.parse(data!) as { account: { email: string } }).account.email).toBe(email);

  await section.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Current password').fill(STUDENT_PASSWORD);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByText(/^Your account will be deleted on .+\. Until then you can cancel\.$/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // Settings stay open after a reload, and the onboarding is one link away.
  await page.reload();
  await expect(section.getByRole('button', { name: 'Cancel deletion' })).toBeVisible();
  await nav.getByRole('link', { name: 'Set up your profile' }).click();
  await expect(page).toHaveURL(/\/onboarding\/student$/);
});
