import { expect, it } from 'vitest';
import { GENERIC_MESSAGES, PAYMENT_SIGNATURE_HEADER } from '@kaminuza/shared';
import { useTestApp, testEnv } from '../../test/app.ts';
import { signCallback } from './providers/signature.ts';

const testApp = useTestApp();

function deliver(event: object) {
  const body = JSON.stringify(event);
  return testApp.app.inject({
    method: 'POST',
    url: '/api/v1/payments/callbacks/sandbox',
    headers: {
      'content-type': 'application/json',
      [PAYMENT_SIGNATURE_HEADER]: signCallback(testEnv().PAYMENTS_WEBHOOK_SECRET, body, new Date()),
    },
    payload: body,
  });
}

it('refuses a signed callback whose text the testApp.database cannot take, naming the field', async () => {
  const event = (reference: string, failure: string | null) => ({
    id: 'evt_1',
    type: 'payment.failed',
    data: { reference, amount: 10, currency: 'USD', method: 'card', failure_reason: failure },
  });
  const response = await deliver(event('PAY-\u0000', 'declined\ud800'));
  expect(response.statusCode).toBe(400);
  expect(response.json().error).toEqual({
    status: 'INVALID_ARGUMENT',
    message: GENERIC_MESSAGES.check_input,
    details: expect.arrayContaining([
      { path: 'data.reference', message: GENERIC_MESSAGES.check_input },
      { path: 'data.failure_reason', message: GENERIC_MESSAGES.check_input },
    ]),
  });
  // The same callback with clean text is acknowledged (its unknown reference is then ignored).
  const clean = await deliver(event('PAY-UNKNOWN', 'declined'));
  expect(clean.statusCode).toBe(200);
  expect(clean.json()).toEqual({ data: { received: true } });
});
