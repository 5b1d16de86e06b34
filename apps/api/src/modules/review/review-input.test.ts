import { expect, it } from 'vitest';
import { GENERIC_MESSAGES, ReviewQueueQuerySchema } from '@kaminuza/shared';
import { inputRejection } from '../../lib/db-errors.ts';
import { useTestApp } from '../../test/app.ts';
import { signInAs } from '../../test/auth.ts';
import { reviewContext } from './review-context.ts';
import { listQueue } from './review-queue.ts';
import { staffIdOf } from './test-helpers.ts';

const testApp = useTestApp();

it('a NUL in the queue search answers 400 and the api keeps serving', async () => {
  const staff = await signInAs(testApp.app, 'staff');
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/v1/partners/${staff.partnerId}/review/submissions?q=ab%00cd`,
    headers: staff.headers,
  });
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().error).toEqual({
    status: 'INVALID_ARGUMENT',
    message: GENERIC_MESSAGES.check_input,
    details: [{ path: 'q', message: GENERIC_MESSAGES.check_input }],
  });
  expect((await testApp.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
});

it('a page that fails leaves no failure of its count unobserved', async () => {
  // Past the request checks, straight to the queue: both of its statements fail on this search, and the
  // one not awaited first used to reject with nobody listening, which ends the process.
  const staff = await signInAs(testApp.app, 'staff');
  const context = await reviewContext(testApp.db, {
    partnerId: staff.partnerId!,
    staffId: await staffIdOf(testApp.db, staff),
    permissions: ['all'],
  });
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    const failure = await listQueue(testApp.db, context, ReviewQueueQuerySchema.parse({ q: 'ab\u0000cd' })).catch(
      (error: unknown) => error,
    );
    expect(inputRejection(failure)).toBe('22021');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', listener);
  }
});
