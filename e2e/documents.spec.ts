import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

type Texts = { documents: Record<string, unknown>; upload: Record<string, unknown> };
const catalogue = (language: string) =>
  JSON.parse(readFileSync(new URL(`../packages/shared/locales/${language}.json`, import.meta.url), 'utf8')) as Texts;

/** A catalogue text by its dotted key, with `{{name}}` placeholders filled. */
function text(texts: Texts, key: string, values: Record<string, string> = {}): string {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], texts);
  return (found as string).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/** A PDF of about `size` bytes: a real header and trailer around a comment. */
function pdfOf(size: number): Buffer {
  const head = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%';
  const tail = '\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n';
  return Buffer.from(head + 'x'.repeat(size - head.length - tail.length) + tail, 'latin1');
}

async function signInAsDemoStudent(page: Page, baseURL: string) {
  const response = await page.request.post('/api/v1/auth/sign-in', {
    data: { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' },
    headers: { origin: baseURL },
  });
  expect(response.ok()).toBe(true);
}

/*
 * Every test uses the demo student (the one account that has completed onboarding). Tests of one
 * project run in order; the two projects may run side by side, so each changes its own document type
 * (desktop the letter of recommendation, mobile the passport) and only reads the others.
 */
test.describe.configure({ mode: 'serial' });
const typeOf = (project: string) => (project === 'mobile' ? 'passport' : 'recommendation_letter');
const either = (...labels: string[]) =>
  new RegExp(`^(${labels.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);

for (const language of ['en', 'rw'] as const) {
  test(
    `documents: upload with progress, download, replace, delete, refusal (${language})`,
    { tag: language === 'en' ? '@desktop-only' : '@phone-only' },
    async ({ page, baseURL }) => {
      test.setTimeout(60_000);
      const t = catalogue(language);
      await page.context().addCookies([{ name: 'i18next', value: language, url: baseURL! }]);
      await signInAsDemoStudent(page, baseURL!);

      // Each chunk waits a moment, so the progress bar can be seen; the chunk sizes are recorded.
      const patchSizes: number[] = [];
      await page.route('**/api/v1/uploads/**', async (route) => {
        if (route.request().method() === 'PATCH') {
          patchSizes.push(route.request().postDataBuffer()?.length ?? 0);
          await new Promise((resolve) => setTimeout(resolve, 400));
        }
        await route.continue();
      });

      await page.goto('/profile?tab=documents');
      await expect(page.getByRole('heading', { name: text(t, 'documents.title'), level: 2 })).toBeVisible();
      const row = (type: string) =>
        page
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { name: text(t, `documents.types.${type}`) }) });
      const status = (key: string) => text(t, 'documents.status_label', { status: text(t, `documents.status.${key}`) });

      // The demo student's seeded documents, with their statuses.
      await expect(row('transcript').getByLabel(status('verified'))).toBeVisible();
      await expect(row('test_scores').getByLabel(status('rejected'))).toBeVisible();
      await expect(page.getByText(text(t, 'documents.allowed', { size: '10 MB' }))).toBeVisible();
      await expectNoAxeViolations(page);

      // A 2 MB PDF goes up in chunks of 256 KB, 512 KB, 1 MB …, with a progress bar.
      const type = typeOf(test.info().project.name);
      const letter = row(type);
      const typeName = text(t, `documents.types.${type}`);
      const pdf = pdfOf(2 * 1024 * 1024);
      await letter
        .getByLabel(
          either(
            text(t, 'documents.upload_label', { type: typeName }),
            text(t, 'documents.replace_label', { type: typeName }),
          ),
        )
        .setInputFiles({ name: 'letter.pdf', mimeType: 'application/pdf', buffer: pdf });
      const progress = letter.getByRole('progressbar', {
        name: text(t, 'upload.progress_label', { name: 'letter.pdf' }),
      });
      await expect(progress).toBeVisible();
      await expect(progress).toBeHidden({ timeout: 20_000 });
      await expect(letter.getByText('letter.pdf')).toBeVisible();
      await expect(letter.getByLabel(status('pending'))).toBeVisible();
      expect(patchSizes.slice(0, 3)).toEqual([256 * 1024, 512 * 1024, 1024 * 1024]);
      expect(patchSizes.reduce((sum, size) => sum + size, 0)).toBe(pdf.length);
      await expectNoAxeViolations(page);

      // Downloaded as an attachment under its name, byte for byte.
      const download = page.waitForEvent('download');
      await letter.getByRole('link', { name: text(t, 'documents.download_label', { type: typeName }) }).click();
      expect((await download).suggestedFilename()).toBe('letter.pdf');
      expect(readFileSync((await (await download).path())!).equals(pdf)).toBe(true);

      // Replaced by a small file, sent in one request.
      await letter
        .getByLabel(text(t, 'documents.replace_label', { type: typeName }))
        .setInputFiles({ name: 'letter-v2.pdf', mimeType: 'application/pdf', buffer: pdfOf(4_000) });
      await expect(letter.getByText('letter-v2.pdf')).toBeVisible();
      await expect(letter.getByText('letter.pdf', { exact: true })).toBeHidden();

      // An HTML page dressed up as a PDF is refused by its bytes.
      const statement = row('personal_statement');
      await statement
        .getByLabel(text(t, 'documents.upload_label', { type: text(t, 'documents.types.personal_statement') }))
        .setInputFiles({
          name: 'statement.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('<!doctype html><h1>hi</h1>'),
        });
      await expect(statement.getByRole('alert')).toHaveText(text(t, 'upload.errors.file_type_not_allowed'));
      await expect(statement.getByLabel(status('not_uploaded'))).toBeVisible();

      // Deleted after confirmation.
      await letter.getByRole('button', { name: text(t, 'documents.delete_label', { type: typeName }) }).click();
      await expect(letter.getByText(text(t, 'documents.delete_confirm', { type: typeName }))).toBeVisible();
      await expectNoAxeViolations(page);
      await letter.getByRole('button', { name: text(t, 'documents.delete_confirm_yes') }).click();
      await expect(letter.getByLabel(status('not_uploaded'))).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
    },
  );

  test(
    `documents: an upload can be cancelled, and the profile picture is set or refused (${language})`,
    { tag: language === 'en' ? '@desktop-only' : '@phone-only' },
    async ({ page, baseURL }) => {
      test.setTimeout(60_000);
      const t = catalogue(language);
      await page.context().addCookies([{ name: 'i18next', value: language, url: baseURL! }]);
      await signInAsDemoStudent(page, baseURL!);
      await page.route('**/api/v1/uploads/**', async (route) => {
        if (route.request().method() === 'PATCH') await new Promise((resolve) => setTimeout(resolve, 1_000));
        await route.continue().catch(() => undefined);
      });
      await page.goto('/profile?tab=documents');

      const typeName = text(t, 'documents.types.personal_statement');
      const statement = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: typeName }) });
      await statement
        .getByLabel(text(t, 'documents.upload_label', { type: typeName }))
        .setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: pdfOf(1024 * 1024) });
      await statement.getByRole('button', { name: text(t, 'upload.cancel_label', { name: 'statement.pdf' }) }).click();
      await expect(statement.getByText(text(t, 'upload.cancelled'))).toBeVisible();
      await expect(
        statement.getByLabel(text(t, 'documents.status_label', { status: text(t, 'documents.status.not_uploaded') })),
      ).toBeVisible();

      const picture = page.getByRole('group', { name: text(t, 'upload.picture.label') });
      await picture
        .getByLabel(text(t, 'upload.picture.choose'))
        .setInputFiles({ name: 'me.pdf', mimeType: 'image/png', buffer: pdfOf(2_000) });
      await expect(picture.getByRole('alert')).toContainText(text(t, 'upload.errors.profile_picture_failed'));
      // Setting the picture changes the shared demo account: one project is enough.
      if (test.info().project.name === 'mobile') return;

      await picture.getByLabel(text(t, 'upload.picture.choose')).setInputFiles({
        name: 'me.png',
        mimeType: 'image/png',
        buffer: Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
          'base64',
        ),
      });
      await expect(picture.getByRole('img', { name: text(t, 'upload.picture.alt') })).toBeVisible();
      await expectNoAxeViolations(page);
      await picture.getByRole('button', { name: text(t, 'upload.picture.remove') }).click();
      await expect(picture.getByRole('img', { name: text(t, 'upload.picture.placeholder') })).toBeVisible();
    },
  );
}

test('an interrupted upload is offered after a reload and resumes from where the server stopped', async ({
  page,
  baseURL,
}) => {
  test.skip(test.info().project.name === 'mobile', 'the same client code; run once, on the account desktop owns');
  test.setTimeout(60_000);
  const t = catalogue('en');
  await signInAsDemoStudent(page, baseURL!);
  // A file on disk, as a file picker gives it (with its name and modification time).
  const path = test.info().outputPath('resumable.pdf');
  writeFileSync(path, pdfOf(2 * 1024 * 1024));

  const requests: { method: string; offset: string | undefined }[] = [];
  let slow = true;
  await page.route('**/api/v1/uploads**', async (route) => {
    const request = route.request();
    requests.push({ method: request.method(), offset: request.headers()['upload-offset'] });
    if (request.method() === 'PATCH' && slow) await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue().catch(() => undefined);
  });

  await page.goto('/profile?tab=documents');
  const typeName = text(t, 'documents.types.recommendation_letter');
  const letter = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: typeName }) });
  const input = () =>
    letter.getByLabel(
      either(
        text(t, 'documents.upload_label', { type: typeName }),
        text(t, 'documents.replace_label', { type: typeName }),
      ),
    );
  await input().setInputFiles(path);
  // The first chunk (256 KB) is accepted, then the page goes away mid-upload.
  await expect.poll(() => requests.filter((r) => r.method === 'PATCH').length, { timeout: 15_000 }).toBeGreaterThan(1);
  await page.reload();
  slow = false;
  requests.length = 0;

  // The screen offers the upload the device kept, with how far it got, and carries it on.
  await expect(letter.getByText(/^Finish uploading resumable\.pdf — \d+%$/)).toBeVisible();
  await letter
    .getByRole('button', { name: text(t, 'upload.unfinished.continue_label', { name: 'resumable.pdf' }) })
    .click();
  await expect(letter.getByText('resumable.pdf')).toBeVisible({ timeout: 20_000 });
  // No new upload was created: the client asked for the offset and continued from it.
  expect(requests[0]?.method).toBe('HEAD');
  expect(requests.some((r) => r.method === 'POST')).toBe(false);
  const firstPatch = requests.find((r) => r.method === 'PATCH');
  expect(Number(firstPatch?.offset)).toBeGreaterThanOrEqual(256 * 1024);

  await letter.getByRole('button', { name: text(t, 'documents.delete_label', { type: typeName }) }).click();
  await letter.getByRole('button', { name: text(t, 'documents.delete_confirm_yes') }).click();
  await expect(
    letter.getByLabel(text(t, 'documents.status_label', { status: text(t, 'documents.status.not_uploaded') })),
  ).toBeVisible();
});
