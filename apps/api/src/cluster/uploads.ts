import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { files } from '../db/schema/index.ts';
import { samplePdf } from '../seed/sample-files.ts';
import type { Cluster, Instance } from './cluster.ts';

/*
 * The resumable-upload proof of the many-instances test, ready for the shared upload store: a student's
 * tus upload is created and half sent through one instance, resumed (HEAD for the offset, PATCH of the
 * rest) through the other, and the stored file, read back through each instance, has the source's sha256.
 */

const TUS = { 'tus-resumable': '1.0.0' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function uploadMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

/**
 * Sends harmless requests through the proxy until the last one was answered by an instance other than
 * `target`: with round robin over two instances, the next request then goes to `target`.
 */
async function steerTo(cluster: Cluster, target: Instance): Promise<void> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const response = await fetch(`${cluster.proxy.url}/health`);
    await response.body?.cancel();
    if (cluster.answeredBy(response) !== target) return;
  }
  throw new Error(`the proxy keeps answering with instance ${target.index + 1}`);
}

/**
 * Runs the proof for the signed-in student (`cookie`, `studentId`) with a PDF of about `size` bytes
 * (over S3's 5 MB minimum part by default, so the first half is an incomplete part in the store).
 */
export async function expectUploadResumedOnTheOtherInstance(
  cluster: Cluster,
  session: { cookie: string; studentId: string },
  size = 7 * 1024 * 1024,
): Promise<void> {
  const [first, second] = cluster.instances;
  if (!first || !second) throw new Error('the proof needs two instances');
  const headers = { ...TUS, cookie: session.cookie, origin: cluster.proxy.url };
  const source = samplePdf(`Transcript across instances ${randomBytes(8).toString('hex')}`, size);
  const expected = sha256(source);
  const half = Math.floor(source.length / 2);

  // Created and half sent through the first instance.
  await steerTo(cluster, first);
  const created = await fetch(`${cluster.proxy.url}/api/v1/uploads`, {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(source.length),
      'upload-metadata': uploadMetadata({ purpose: 'transcript', filename: 'transcript.pdf' }),
    },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  expect(cluster.answeredBy(created)).toBe(first);
  const location = new URL(created.headers.get('location')!, cluster.proxy.url).pathname;
  await steerTo(cluster, first);
  const started = await fetch(`${cluster.proxy.url}${location}`, {
    method: 'PATCH',
    headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: source.subarray(0, half),
  });
  expect(started.status, await started.clone().text()).toBe(204);
  expect(cluster.answeredBy(started)).toBe(first);

  // Resumed through the second: it reads the offset the first one reached, and takes the rest.
  await steerTo(cluster, second);
  const head = await fetch(`${cluster.proxy.url}${location}`, { method: 'HEAD', headers });
  expect(head.status).toBe(200);
  expect(cluster.answeredBy(head)).toBe(second);
  expect(Number(head.headers.get('upload-offset'))).toBe(half);
  await steerTo(cluster, second);
  const rest = await fetch(`${cluster.proxy.url}${location}`, {
    method: 'PATCH',
    headers: { ...headers, 'upload-offset': String(half), 'content-type': 'application/offset+octet-stream' },
    body: source.subarray(half),
  });
  expect(rest.status, await rest.clone().text()).toBe(204);
  expect(cluster.answeredBy(rest)).toBe(second);

  // The stored file is the source, byte for byte, whichever instance serves it.
  const [stored] = await cluster.database.db.select().from(files).where(eq(files.owner_id, session.studentId));
  expect(stored?.sha256).toBe(expected);
  for (const instance of cluster.instances) {
    await steerTo(cluster, instance);
    const download = await fetch(`${cluster.proxy.url}/api/v1/students/me/documents/transcript/download`, {
      headers: { cookie: session.cookie },
    });
    expect(download.status).toBe(200);
    expect(cluster.answeredBy(download)).toBe(instance);
    expect(sha256(new Uint8Array(await download.arrayBuffer())), `served by instance ${instance.index + 1}`).toBe(
      expected,
    );
  }
}
