import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, recordRenderEvent, test, waitForApp } from './fixtures.ts';
import { signInReadyInstitution } from './staff.ts';

const DEMO_STUDENT = { email: 'demo.student@kaminuza.example', password: 'Kaminuza#2025' };

async function data<T>(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<T> {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

/** A page of its own browser context, so the student and the institution never share cookies. */
async function freshPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await recordRenderEvent(page);
  return page;
}

/**
 * The demo student's application to a fresh ready institution (the applying screens have their own
 * tests), and the fee checkout the application screen would send the browser to.
 */
async function applicationWithCheckout(browser: Browser, request: APIRequestContext, baseURL: string) {
  const staff = await freshPage(browser);
  const institution = await signInReadyInstitution(staff, request);
  const student = await freshPage(browser);
  const headers = { origin: baseURL };
  await data(await student.request.post('/api/v1/auth/sign-in', { headers, data: DEMO_STUDENT }));
  const application = await data<{ id: string }>(
    await student.request.post(`/api/v1/partners/${institution.partnerId}/application`, {
      headers,
      data: { program_id: institution.programId, campus_id: institution.campusId },
    }),
  );
  const checkout = await data<{ checkout_url: string; payment: { reference: string } }>(
    await student.request.post(`/api/v1/applications/${application.id}/payment`, {
      headers: { ...headers, 'idempotency-key': `e2e-${randomBytes(8).toString('hex')}` },
    }),
  );
  return {
    institution,
    student,
    applicationId: application.id,
    checkoutUrl: checkout.checkout_url,
    reference: checkout.payment.reference,
  };
}

/** The card provider's hosted checkout (the Flutterwave simulator the server starts, as `npm start` does). */
async function payByCard(page: Page, cardNumber: string) {
  await expect(page).toHaveTitle(/Flutterwave test checkout/);
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/30');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

test('payments: a declined card, then a paid one, on the card provider’s hosted checkout', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const {
    institution,
    student: page,
    applicationId,
    checkoutUrl,
  } = await applicationWithCheckout(browser, request, baseURL!);
  // The provider's own page, on its own address: the card never touches this site.
  expect(new URL(checkoutUrl).origin).not.toBe(new URL(baseURL!).origin);

  await page.goto(checkoutUrl);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await payByCard(page, '4000 0000 0000 0002');

  // Back on /pay, whatever the address says: the provider's verify answer decides.
  await expect(page).toHaveURL(/\/pay\?reference=pay_/);
  await waitForApp(page);
  await expect(page.getByRole('heading', { name: 'Pay the application fee', level: 1 })).toBeVisible();
  await expect(page.getByText(institution.name)).toBeVisible();
  await expect(page.getByText(institution.programName)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment not completed' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('The card was declined. No money was taken.');
  await expectNoAxeViolations(page);

  // Trying again opens a new checkout for the same application, on the provider's page again.
  await page.getByRole('button', { name: 'Try again' }).click();
  await payByCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/pay\?reference=pay_/);
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page.getByText(`$100.00 was paid for your application to ${institution.name}.`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to my application' })).toHaveAttribute(
    'href',
    `/partners/${institution.partnerId}/application/form`,
  );
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // The application knows it is paid, and a second checkout is refused.
  const draft = await data<{ paid: boolean }>(await page.request.get(`/api/v1/applications/${applicationId}`));
  expect(draft.paid).toBe(true);
  const again = await page.request.post(`/api/v1/applications/${applicationId}/payment`, {
    headers: { origin: baseURL! },
  });
  expect(again.status()).toBe(409);
});

test(
  'payments: signed out, the checkout asks to sign in and comes back',
  { tag: '@desktop-only' },
  async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const { reference, institution } = await applicationWithCheckout(browser, request, baseURL!);
    const payPage = `/pay?reference=${reference}`;
    const visitor = await freshPage(browser);
    await visitor.goto(payPage);
    await waitForApp(visitor);
    await expect(visitor.getByRole('heading', { name: 'Sign in to pay' })).toBeVisible();
    await expectNoAxeViolations(visitor);
    await visitor.getByRole('link', { name: 'Sign in' }).last().click();
    await visitor.getByLabel('Email address').fill(DEMO_STUDENT.email);
    await visitor.getByLabel('Password').fill(DEMO_STUDENT.password);
    await visitor.getByRole('button', { name: 'Sign in' }).click();
    await expect(visitor).toHaveURL(payPage);
    await expect(visitor.getByText(institution.name)).toBeVisible();
    // Not paid on the provider's page yet: this page waits for its verdict.
    await expect(visitor.getByText('Confirming your payment with the provider…')).toBeVisible();
  },
);

test(
  'payments: an unknown reference shows the not-found state',
  { tag: '@desktop-only' },
  async ({ browser, baseURL }) => {
    const page = await freshPage(browser);
    await data(await page.request.post('/api/v1/auth/sign-in', { headers: { origin: baseURL! }, data: DEMO_STUDENT }));
    await page.goto('/pay?reference=pay_000000000000000000000000');
    await waitForApp(page);
    await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to my applications' })).toBeVisible();
    await expectNoAxeViolations(page);
  },
);
