import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessibleAndFitting, ownBrowser, test, waitForApp } from './fixtures.ts';
import { signInReadyInstitution, type ReadyInstitution } from './staff.ts';
import { signInNewStudent } from './students.ts';

/*
 * Issue 22 in the browser, against the payment simulators the server starts (as `npm start` does): an
 * applicant pays by MTN MoMo, M-Pesa and Airtel Money, follows the prompt live, submits and downloads the
 * receipt; a waiver code and a bank slip each lead to a submission; the institution's finance view shows
 * the payments.
 */

const BANK_ACCOUNT = {
  currency: 'RWF',
  bank_name: 'Bank of Kigali',
  account_name: 'Lakeside University Admissions',
  account_number: '00040-0695123-45',
  branch: 'Rubavu',
  swift: 'BKIGRWRW',
  instructions: null,
};

async function ok<T>(response: Awaited<ReturnType<Page['request']['get']>>): Promise<T> {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

/** The institution charges 100 USD by card, 30,000 RWF by card, MoMo, Airtel or bank slip, 3,000 KES by M-Pesa. */
async function chargeInThreeCurrencies(staff: Page, institution: ReadyInstitution) {
  const base = `/api/v1/partners/${institution.partnerId}/settings`;
  const headers = { origin: new URL(staff.url()).origin };
  const { admissions } = await ok<{ admissions: Record<string, unknown> }>(await staff.request.get(base));
  await ok(
    await staff.request.put(`${base}/admissions`, {
      headers,
      data: {
        ...admissions,
        application_fee: undefined,
        application_fee_currency: undefined,
        bank_accounts: [BANK_ACCOUNT],
        application_fees: [
          { currency: 'USD', amount: 10_000, channels: ['card'] },
          { currency: 'RWF', amount: 30_000, channels: ['card', 'mtn_momo', 'airtel_money', 'bank_slip'] },
          { currency: 'KES', amount: 300_000, channels: ['mpesa'] },
        ],
      },
    }),
  );
}

/** A waiver code of the institution's current cycle, valid 30 days, usable `maxUses` times. */
async function waiverCode(staff: Page, institution: ReadyInstitution, maxUses: number) {
  return ok<{ code: string }>(
    await staff.request.post(`/api/v1/partners/${institution.partnerId}/waiver-codes`, {
      headers: { origin: new URL(staff.url()).origin },
      data: {
        cycle_id: institution.cycleId,
        max_uses: maxUses,
        expires_on: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        label: `e2e-${randomBytes(3).toString('hex')}`,
      },
    }),
  );
}

/** A new applicant with an application whose form is answered, left at the payment step. */
async function applicantAtPayment(browser: Browser, baseURL: string, institution: ReadyInstitution) {
  const student = await ownBrowser(browser, baseURL);
  await signInNewStudent(student, student.request, baseURL);
  const headers = { origin: baseURL };
  const application = await ok<{ id: string; version: number }>(
    await student.request.post(`/api/v1/partners/${institution.partnerId}/application`, {
      headers,
      data: { program_id: institution.programId, campus_id: institution.campusId },
    }),
  );
  await ok(
    await student.request.patch(`/api/v1/applications/${application.id}`, {
      headers,
      data: {
        version: application.version,
        answers: { full_name: 'Aline Uwase', why: 'To study the lakes of my country and protect them.' },
        current_step: 1,
      },
    }),
  );
  await student.goto(`/partners/${institution.partnerId}/application/form`);
  await waitForApp(student);
  await expect(student.getByRole('heading', { level: 2, name: 'Payment' })).toBeVisible();
  return { student, applicationId: application.id };
}

/** From the review step: submit, confirm, and see the confirmation. */
async function submit(student: Page, institution: ReadyInstitution) {
  await expect(student.getByRole('heading', { level: 2, name: 'Review & submit' })).toBeVisible();
  await student.getByRole('button', { name: 'Submit application' }).click();
  await student
    .getByRole('dialog', { name: 'Submit your application?' })
    .getByRole('button', { name: 'Yes, submit' })
    .click();
  await expect(student).toHaveURL(new RegExp(`/partners/${institution.partnerId}/application/submitted$`));
  await expect(student.getByRole('heading', { level: 1, name: 'Application submitted' })).toBeVisible();
}

test.describe('application fees', () => {
  test('MTN MoMo: the prompt is approved on the phone, the page follows it live, the applicant submits with a receipt', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    await chargeInThreeCurrencies(page, institution);
    const { student } = await applicantAtPayment(browser, baseURL!, institution);

    // Three currencies; in RWF the ways to pay the institution takes there.
    await expect(student.getByRole('radio', { name: '$100.00' })).toBeChecked();
    await student.getByRole('radio', { name: /RWF\s30,000/ }).check();
    await expect(student.getByRole('radio', { name: /M-Pesa/ })).toHaveCount(0);
    await student.getByRole('radio', { name: /MTN MoMo/ }).check();
    await expectAccessibleAndFitting(student);
    // A Kenyan number cannot pay with MoMo in RWF: said under the field, nothing sent.
    await student.getByLabel('MTN MoMo number').fill('+254 712 345 678');
    await student.getByRole('button', { name: /Send the payment request/ }).click();
    await expect(
      student.getByText('This number cannot pay with this network in this currency.', { exact: false }),
    ).toBeVisible();

    // A number the payer's phone answers itself (the simulator's pending prompt, approved on the test phone).
    await student.getByLabel('MTN MoMo number').fill('0788 123 000');
    await student.getByRole('button', { name: /Send the payment request/ }).click();
    await expect(student).toHaveURL(/\/pay\?reference=/);
    await expect(student.getByRole('heading', { name: 'Approve the payment on your phone' })).toBeVisible();
    await expect(student.getByText('+250788123000')).toBeVisible();
    await expectAccessibleAndFitting(student);

    // The payer's phone: the dev page lists the prompt; approving it settles the payment, the tab follows.
    const phone = await ownBrowser(browser, baseURL);
    await phone.goto('/dev/phone');
    const pending = phone.getByRole('region', { name: 'Waiting for the payer' });
    const prompt = pending.getByRole('listitem').filter({ hasText: '250788123000' });
    await expect(prompt).toBeVisible();
    await expectAccessibleAndFitting(phone);
    await prompt.getByRole('button', { name: 'Approve' }).click();
    await expect(student.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 30_000 });

    // The receipt is a PDF.
    const receipt = student.getByRole('link', { name: 'Download receipt' });
    const pdf = await student.request.get((await receipt.getAttribute('href'))!);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await student.getByRole('link', { name: 'Back to my application' }).click();
    await expect(student.getByText(/Paid ✓/)).toBeVisible();
    await student.getByRole('button', { name: 'Continue to review' }).click();
    await submit(student, institution);
  });

  test('M-Pesa: a declined prompt says so and what to do; another attempt is approved', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    await chargeInThreeCurrencies(page, institution);
    const { student } = await applicantAtPayment(browser, baseURL!, institution);

    await student.getByRole('radio', { name: /KES/ }).check();
    await expect(student.getByRole('radio', { name: /M-Pesa/ })).toBeChecked();
    // 222: the simulator's payer declines at once.
    await student.getByLabel('M-Pesa number').fill('0712 000 222');
    await student.getByRole('button', { name: /Send the payment request/ }).click();
    await expect(student.getByRole('heading', { name: 'Payment not completed' })).toBeVisible({ timeout: 30_000 });
    await expect(student.getByText('The mobile money payment was not approved. No money was taken.')).toBeVisible();
    await expectAccessibleAndFitting(student);
    await student.getByRole('link', { name: 'Choose how to pay again' }).click();

    await expect(student.getByRole('heading', { level: 2, name: 'Payment' })).toBeVisible();
    await student.getByRole('radio', { name: /KES/ }).check();
    // 111: approved at once.
    await student.getByLabel('M-Pesa number').fill('0712 000 111');
    await student.getByRole('button', { name: /Send the payment request/ }).click();
    await expect(student.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 30_000 });
  });

  test('Airtel Money: approved, submitted, and seen in the institution’s finance view', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    await chargeInThreeCurrencies(page, institution);
    const { student } = await applicantAtPayment(browser, baseURL!, institution);

    await student.getByRole('radio', { name: /RWF/ }).check();
    await student.getByRole('radio', { name: /Airtel Money/ }).check();
    await student.getByLabel('Airtel Money number').fill('0731 000 111');
    await student.getByRole('button', { name: /Send the payment request/ }).click();
    await expect(student.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 30_000 });
    await student.getByRole('link', { name: 'Back to my application' }).click();
    await student.getByRole('button', { name: 'Continue to review' }).click();
    await submit(student, institution);

    // The institution's finance view has the payment, with its total in RWF.
    await page.goto('/partner/finance');
    await expect(page.getByRole('heading', { level: 1, name: 'Finance' })).toBeVisible();
    await expect(page.getByText(/RWF\s30,000/).first()).toBeVisible();
    await expect(page.getByText('Airtel Money').locator('visible=true').first()).toBeVisible();
    await expectAccessibleAndFitting(page);
  });

  test('a waiver code lets the applicant submit with the fee waived', async ({ page, request, browser, baseURL }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    await chargeInThreeCurrencies(page, institution);
    const code = await waiverCode(page, institution, 5);
    const { student } = await applicantAtPayment(browser, baseURL!, institution);
    await student.getByRole('textbox', { name: 'Waiver code' }).fill(code.code.toLowerCase());
    await student.getByRole('button', { name: 'Apply code' }).click();
    await expect(
      student.getByText('The application fee is waived with your code. You can submit without paying.'),
    ).toBeVisible();
    await expectAccessibleAndFitting(student);
    await student.getByRole('button', { name: 'Continue to review' }).first().click();
    await submit(student, institution);
  });

  test('a payment approved after the fee was waived is owed back, and finance staff refund it through MTN MoMo', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    await chargeInThreeCurrencies(page, institution);
    const code = await waiverCode(page, institution, 1);
    const { student } = await applicantAtPayment(browser, baseURL!, institution);

    // A MoMo prompt waits on the payer's phone…
    const number = `0788 ${String(100 + (randomBytes(1)[0]! % 800))} 000`;
    const msisdn = `250${number.replaceAll(' ', '').slice(1)}`;
    await student.getByRole('radio', { name: /RWF\s30,000/ }).check();
    await student.getByRole('radio', { name: /MTN MoMo/ }).check();
    await student.getByLabel('MTN MoMo number').fill(number);
    await student.getByRole('button', { name: /Send the payment request/ }).click();
    await expect(student.getByRole('heading', { name: 'Approve the payment on your phone' })).toBeVisible();

    // …while the applicant uses a waiver code instead.
    await student.goto(`/partners/${institution.partnerId}/application/form`);
    await waitForApp(student);
    await student.getByRole('textbox', { name: 'Waiver code' }).fill(code.code);
    await student.getByRole('button', { name: 'Apply code' }).click();
    await expect(
      student.getByText('The application fee is waived with your code. You can submit without paying.'),
    ).toBeVisible();

    // Then the payer approves the prompt after all: the money is owed back, not kept as the fee.
    const phone = await ownBrowser(browser, baseURL);
    await phone.goto('/dev/phone');
    const prompt = phone
      .getByRole('region', { name: 'Waiting for the payer' })
      .getByRole('listitem')
      .filter({ hasText: msisdn });
    await prompt.getByRole('button', { name: 'Approve' }).click();
    await student.getByRole('button', { name: 'Continue to review' }).first().click();
    await submit(student, institution);

    // Finance staff see it owed back and refund it through MoMo's own refund API.
    await page.goto('/partner/finance?needs_refund=true');
    await expect(page.getByRole('heading', { level: 1, name: 'Finance' })).toBeVisible();
    const refund = page
      .getByRole('button', { name: /^Refund payment / })
      .locator('visible=true')
      .first();
    await expect(refund).toBeVisible({ timeout: 30_000 });
    await refund.click();
    const dialog = page.getByRole('dialog', { name: /^Refund / });
    await expect(dialog.getByText(/MTN MoMo can give RWF\s30,000 back to the payer's account\./)).toBeVisible();
    await expectAccessibleAndFitting(page);
    await dialog.getByRole('button', { name: /Refund RWF\s30,000 through MTN MoMo/ }).click();
    await expect(page.getByText(/The refund of .* was sent to the provider\./)).toBeVisible();
    // The row says the refund is under way, and follows it until MoMo answers.
    await page.goto('/partner/finance?provider=mtn_momo');
    await expect(page.getByText('Refunded through MTN MoMo.').locator('visible=true').first()).toBeVisible({
      timeout: 30_000,
    });
    await expectAccessibleAndFitting(page);
  });

  test('a bank slip is sent by the applicant, approved by finance staff, and the applicant submits', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.slow();
    const institution = await signInReadyInstitution(page, request);
    await chargeInThreeCurrencies(page, institution);
    const { student } = await applicantAtPayment(browser, baseURL!, institution);

    await student.getByRole('radio', { name: /RWF/ }).check();
    await student.getByRole('radio', { name: /Bank deposit/ }).check();
    await expect(student.getByText(BANK_ACCOUNT.account_number)).toBeVisible();
    await student.getByLabel('Choose the slip (photo or PDF)').setInputFiles({
      name: 'slip.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    });
    await expect(student.getByText('Slip uploaded.')).toBeVisible();
    await student.getByLabel('Bank reference on the slip').fill('BK-2026-778812');
    await student.getByRole('button', { name: 'Send the slip for verification' }).click();
    await expect(student.getByText(/Your bank slip was sent/)).toBeVisible();
    await expectAccessibleAndFitting(student);

    // Finance staff verify it.
    await page.goto('/partner/finance');
    await page
      .getByRole('button', { name: /Verify bank slip/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: /Verify bank slip/ });
    await expect(dialog.getByText('BK-2026-778812', { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText(/is approved: the fee is paid/)).toBeVisible();

    await student.reload();
    await expect(student.getByText(/Paid ✓/)).toBeVisible();
    await student.getByRole('button', { name: 'Continue to review' }).click();
    await submit(student, institution);
  });
});
