import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { documentDownloadUrl } from '@kaminuza/shared';
import { expect, test } from './fixtures.ts';
import { signInNewStudent } from './students.ts';

const en = JSON.parse(readFileSync(new URL('../packages/shared/locales/en.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;

/** An English catalogue text by its dotted key, with `{{name}}` placeholders filled. */
function text(key: string, values: Record<string, string> = {}): string {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en);
  return (found as string).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/** A PDF of `size` bytes whose body is not one repeated byte, so a chunk sent twice or lost changes its hash. */
function pdfOf(size: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%', 'latin1');
  const tail = Buffer.from('\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
  const body = Buffer.alloc(size - head.length - tail.length);
  for (let i = 0; i < body.length; i++) body[i] = 0x21 + ((i * 31 + (i >> 10)) % 90);
  return Buffer.concat([head, body, tail]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test(
  'an upload interrupted by going offline carries on when the connection returns, byte for byte',
  { tag: '@desktop-only' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(60_000);
    await signInNewStudent(page, request, baseURL!);
    const requests: { method: string; offset: string | undefined }[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/api/v1/uploads')) {
        requests.push({ method: sent.method(), offset: sent.headers()['upload-offset'] });
      }
    });
    await page.goto('/profile?tab=documents');
    const typeName = text('documents.types.passport');
    const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: typeName }) });

    // A phone's upload speed (about 400 KB/s), so the connection can be cut midway through the 3 MB.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 100,
      downloadThroughput: 1024 * 1024,
      uploadThroughput: 400 * 1024,
    });

    const pdf = pdfOf(3 * 1024 * 1024);
    await row
      .getByLabel(text('documents.upload_label', { type: typeName }))
      .setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: pdf });
    const progress = row.getByRole('progressbar', { name: text('upload.progress_label', { name: 'passport.pdf' }) });
    await expect
      .poll(async () => Number(await progress.getAttribute('value')), { timeout: 15_000 })
      .toBeGreaterThan(10);

    await page.context().setOffline(true);
    await expect(row.getByText(/^No connection: \d+% sent\./)).toBeVisible();
    const sentBeforeOffline = Number(await progress.getAttribute('value'));
    expect(sentBeforeOffline).toBeGreaterThan(10);
    expect(sentBeforeOffline).toBeLessThan(100);
    await page.waitForTimeout(1_000);
    // Still waiting, with what was sent kept on screen.
    await expect(row.getByText(/^No connection/)).toBeVisible();
    const beforeOnline = requests.length;

    await page.context().setOffline(false);
    await expect(row.getByText('passport.pdf', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(
      row.getByLabel(text('documents.status_label', { status: text('documents.status.pending') })),
    ).toBeVisible();

    // One upload: on return the client asked the server's offset and went on from there, not from zero.
    expect(requests.filter((sent) => sent.method === 'POST')).toHaveLength(1);
    const afterOnline = requests.slice(beforeOnline);
    expect(afterOnline[0]?.method).toBe('HEAD');
    expect(Number(afterOnline.find((sent) => sent.method === 'PATCH')?.offset)).toBeGreaterThan(0);

    const stored = await page.request.get(documentDownloadUrl('passport'));
    expect(stored.status()).toBe(200);
    expect(sha256(await stored.body())).toBe(sha256(pdf));
  },
);
