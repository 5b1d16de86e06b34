import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { currencyDigits, type PaymentProvider } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import { applications, cycles, forms, partners, payments, programs, students } from '../db/schema/index.ts';
import { seedDemoAdmissions } from '../seed/admissions.ts';
import { createVerifiedAccount } from '../modules/auth/accounts.ts';
import type { MobileMoneyProvider } from '../modules/payments/providers/mobile-money.ts';

/*
 * What the payment tests stand on: a published institution with the demo admissions (a current cycle,
 * a program, a form), and students each with an in-progress application to it. Used by the tests of
 * every provider, so each test file writes only what it drives.
 */

/** A published, approved institution with the demo admissions; answers its id. */
export async function createPayingInstitution(db: Db, label: string, country = 'RW'): Promise<string> {
  const slug = `${label}-${randomBytes(4).toString('hex')}`;
  const [partner] = await db
    .insert(partners)
    .values({
      slug,
      name: `Institution ${slug}`,
      status: 'approved',
      published: true,
      address_city: 'Kigali',
      address_country: country,
      institution_type: 'public',
      year_established: 2000,
      region: 'africa',
      size: 'medium',
      setting: 'urban',
    })
    .returning({ id: partners.id });
  await seedDemoAdmissions(db, partner!.id);
  return partner!.id;
}

/** A new verified student with an in-progress application to the institution. */
export async function createApplicant(db: Db, partnerId: string, label = 'payer') {
  const user = await createVerifiedAccount(db, {
    type: 'student',
    email: `${label}-${randomBytes(6).toString('hex')}@test.kaminuza.example`,
    passwordHash: 'not-used',
    firstName: 'Test',
    lastName: 'Payer',
  });
  return createApplicationOf(db, partnerId, user!.id);
}

/** An in-progress application to the institution of an existing student user (e.g. one signed in). */
export async function createApplicationOf(db: Db, partnerId: string, userId: string) {
  const user = { id: userId };
  const [student] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, user.id));
  const [cycle] = await db.select({ id: cycles.id }).from(cycles).where(eq(cycles.partner_id, partnerId));
  const [program] = await db.select({ id: programs.id }).from(programs).where(eq(programs.partner_id, partnerId));
  const [form] = await db.select({ id: forms.id }).from(forms).where(eq(forms.partner_id, partnerId));
  const [application] = await db
    .insert(applications)
    .values({
      student_id: student!.id,
      partner_id: partnerId,
      cycle_id: cycle!.id,
      program_id: program!.id,
      form_id: form!.id,
    })
    .returning({ id: applications.id });
  return { userId: user.id, studentId: student!.id, applicationId: application!.id };
}

/** A pending payment record of a new applicant's fee, as the start of a checkout or prompt writes it. */
export async function createPendingPayment(
  db: Db,
  partnerId: string,
  payment: {
    provider: PaymentProvider;
    amount: number;
    currency: string;
    reference?: string;
    providerReference?: string | null;
    payerPhone?: string | null;
    /** An existing student account that pays (default: a new applicant). */
    userId?: string;
  },
) {
  const applicant = payment.userId
    ? await createApplicationOf(db, partnerId, payment.userId)
    : await createApplicant(db, partnerId);
  const reference = payment.reference ?? randomUUID();
  await db.insert(payments).values({
    application_id: applicant.applicationId,
    student_id: applicant.studentId,
    partner_id: partnerId,
    provider: payment.provider,
    reference,
    amount: payment.amount,
    currency: payment.currency,
    provider_reference: payment.providerReference ?? null,
    payer_phone: payment.payerPhone ?? null,
  });
  return { ...applicant, reference };
}

/** A payment record by our reference. */
export async function paymentByReference(db: Db, reference: string) {
  const [row] = await db.select().from(payments).where(eq(payments.reference, reference));
  return row!;
}

/** Waits until the payment leaves `pending` (or `within` ms passed), and answers it. */
export async function settledPayment(db: Db, reference: string, within = 8000) {
  const until = Date.now() + within;
  for (;;) {
    const row = await paymentByReference(db, reference);
    if (row.status !== 'pending' || Date.now() > until) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A test payer's number per network: a number of its market ending in the simulator's script digits. */
const PAYER_NUMBERS = {
  mtn_momo: { prefix: '250788', random: 3, country: 'RW' },
  mpesa: { prefix: '2547123', random: 2, country: 'KE' },
  mpesa_tz: { prefix: '2557540', random: 3, country: 'TZ' },
  airtel_money: { prefix: '2567500', random: 3, country: 'UG' },
} as const;

/**
 * A pending mobile money payment of `amount` (major units) of a new applicant, and its prompt asked of the
 * network's simulator through the real adapter, as the start of a payment does: the payer's number ends in
 * `script` (the simulator's scripted outcome), and the provider's own id of the prompt (Daraja's
 * CheckoutRequestID) is kept beside our reference.
 */
export async function promptedPayment(
  db: Db,
  partnerId: string,
  provider: MobileMoneyProvider,
  { script, amount, currency, callbackUrl }: { script: string; amount: number; currency: string; callbackUrl: string },
) {
  const payer = PAYER_NUMBERS[provider.name];
  const random = String(randomBytes(2).readUInt16BE() % 10 ** payer.random).padStart(payer.random, '0');
  const msisdn = `${payer.prefix}${random}${script}`;
  const created = await createPendingPayment(db, partnerId, {
    provider: provider.name,
    amount,
    currency,
    payerPhone: msisdn,
  });
  const { providerReference } = await provider.requestPayment({
    reference: created.reference,
    amount: Math.round(amount * 10 ** currencyDigits(currency)),
    currency,
    msisdn,
    country: payer.country,
    payerMessage: 'Application fee',
    payeeNote: `Application ${created.applicationId}`,
    callbackUrl,
  });
  if (providerReference) {
    await db
      .update(payments)
      .set({ provider_reference: providerReference })
      .where(eq(payments.reference, created.reference));
  }
  return { ...created, msisdn, providerReference };
}
