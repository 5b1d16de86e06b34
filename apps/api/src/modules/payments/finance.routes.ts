import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataEnvelope,
  FinanceDiscrepancyListSchema,
  FinanceDiscrepancySchema,
  FinancePageSchema,
  FinancePaymentSchema,
  FinanceQuerySchema,
  RefundByHandSchema,
  ResolveDiscrepancySchema,
  SlipVerificationSchema,
  type StaffPermission,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { attachmentDisposition, downloadHeaders } from '../../lib/file-download.ts';
import { staffGuard } from '../partners/index.ts';
import { exportFinanceCsv, listFinancePayments, refundByHand } from './finance.service.ts';
import { listOpenDiscrepancies, resolveDiscrepancy } from './reconciliation.service.ts';
import { bankSlipFile, verifyBankSlip } from './bank-slips.service.ts';
import type { JobSender } from '../../lib/jobs/queue.ts';
import type { RefundingProviders } from './refund-providers.ts';
import { requestProviderRefund } from './refunds.service.ts';
import { sendProviderRefund } from './payments.jobs.ts';
import type { Storage } from '../../lib/storage/index.ts';

/** Reading the finance view: view_payments, or manage_finance which implies it ('all' holds both). */
export const FINANCE_READ_PERMISSIONS: readonly StaffPermission[] = ['view_payments', 'manage_finance'];
/** Refunds, fee waivers and bank slip verification. */
export const FINANCE_MANAGE_PERMISSIONS: readonly StaffPermission[] = ['manage_finance'];

const PartnerParams = z.object({ partnerId: z.uuid() });
const PaymentParams = PartnerParams.extend({ paymentId: z.uuid() });
const DiscrepancyParams = PartnerParams.extend({ discrepancyId: z.uuid() });

/**
 * The staff finance view: the institution's fee payments, their totals per currency and the CSV
 * export, for members holding view_payments or manage_finance; marking a payment owed back as refunded
 * by hand needs manage_finance. Another institution's id, or its payment, answers 404.
 */
export const financeRoutes: FastifyPluginAsyncZod<{
  db: Db;
  storage: Storage;
  publicUrl: string;
  /** The providers whose refund API can give money back (refund-providers.ts). */
  refunding: RefundingProviders;
  jobs: JobSender;
}> = async (app, { db, storage, publicUrl, refunding, jobs }) => {
  const tags = ['finance'];
  const read = staffGuard(db, FINANCE_READ_PERMISSIONS);
  const manage = staffGuard(db, FINANCE_MANAGE_PERMISSIONS);
  const base = '/partners/:partnerId/finance';

  app.get(
    `${base}/payments`,
    {
      preHandler: read,
      schema: {
        tags,
        summary: "The institution's fee payments, filtered and paged, newest first, with totals per currency",
        description:
          'Amounts and totals are decimal strings with two decimals, as stored; the totals cover every matching payment, not just the page.',
        params: PartnerParams,
        querystring: FinanceQuerySchema,
        response: { 200: dataEnvelope(FinancePageSchema) },
      },
    },
    async (request) => ({ data: await listFinancePayments(db, request.staff!, request.query, refunding) }),
  );

  app.get(
    `${base}/payments.csv`,
    {
      preHandler: read,
      schema: {
        tags,
        summary: 'The payments matching the same filters as CSV (every matching row, the page ignored)',
        params: PartnerParams,
        querystring: FinanceQuerySchema,
      },
    },
    async (request, reply) => {
      const { page: _page, limit: _limit, ...filters } = request.query;
      const day = new Date().toISOString().slice(0, 10);
      return downloadHeaders(reply, {
        contentType: 'text/csv; charset=utf-8',
        disposition: attachmentDisposition(`payments-${day}.csv`),
        cacheControl: 'private, no-store',
      }).send(exportFinanceCsv(db, request.staff!, filters));
    },
  );

  app.post(
    `${base}/payments/:paymentId/refund`,
    {
      preHandler: manage,
      schema: {
        tags,
        summary: 'Record that a payment owed back was refunded by hand, with a note saying how',
        params: PaymentParams,
        body: RefundByHandSchema,
        response: { 200: dataEnvelope(FinancePaymentSchema) },
      },
    },
    async (request) => ({
      data: await refundByHand(db, request.staff!, request.user!.id, request.params.paymentId, request.body),
    }),
  );

  app.post(
    `${base}/payments/:paymentId/provider-refund`,
    {
      preHandler: manage,
      schema: {
        tags,
        summary: "Refund a payment owed back through its provider's refund API",
        description:
          'Answers at once with the refund under way (`refund_status: processing`); the provider is asked by a job, and its answer closes the refund (refunded, or owed back again with `refund_error`). Asking twice makes one refund: the second answers 409.',
        params: PaymentParams,
        response: { 200: dataEnvelope(FinancePaymentSchema) },
      },
    },
    async (request) => {
      const { payment, refundReference } = await requestProviderRefund(
        db,
        refunding,
        request.staff!,
        request.user!.id,
        request.params.paymentId,
      );
      // Claimed and committed: a job lost here is picked up by the refund sweep a few minutes later.
      await sendProviderRefund(jobs, { paymentId: payment.id, refundReference, attempt: 0 }).catch((error: unknown) => {
        request.log.warn({ err: error, payment: payment.id }, 'the refund job could not be sent; the sweep will');
      });
      return { data: payment };
    },
  );

  app.get(
    `${base}/discrepancies`,
    {
      preHandler: read,
      schema: {
        tags,
        summary: "The open differences between the institution's settled payments and the providers' records",
        description:
          'Found by the daily reconciliation, oldest first. Amounts in `ours` and `theirs` are in minor units of the currency.',
        params: PartnerParams,
        response: { 200: dataEnvelope(FinanceDiscrepancyListSchema) },
      },
    },
    async (request) => ({ data: await listOpenDiscrepancies(db, request.staff!) }),
  );

  app.post(
    `${base}/discrepancies/:discrepancyId/resolve`,
    {
      preHandler: manage,
      schema: {
        tags,
        summary: 'Resolve an open difference with a note saying what was found and done',
        params: DiscrepancyParams,
        body: ResolveDiscrepancySchema,
        response: { 200: dataEnvelope(FinanceDiscrepancySchema) },
      },
    },
    async (request) => ({
      data: await resolveDiscrepancy(db, request.staff!, request.user!.id, request.params.discrepancyId, request.body),
    }),
  );

  app.get(
    `${base}/payments/:paymentId/slip`,
    {
      preHandler: manage,
      schema: {
        tags,
        summary: 'The photo or PDF of a bank slip an applicant sent with their fee',
        description: 'For staff verifying slips (manage_finance); 404 when the payment has no slip.',
        params: PaymentParams,
      },
    },
    async (request, reply) => {
      const file = await bankSlipFile(db, storage, request.staff!, request.params.paymentId);
      return downloadHeaders(reply, {
        contentType: file.mimeType,
        disposition: attachmentDisposition(file.name),
        cacheControl: 'private, no-store',
        length: file.size,
      }).send(file.stream);
    },
  );

  app.post(
    `${base}/payments/:paymentId/verify`,
    {
      preHandler: manage,
      schema: {
        tags,
        summary: 'Approve or reject a bank slip waiting for verification',
        description:
          'Approving marks the payment paid by bank transfer and issues its receipt; rejecting fails it with the ' +
          'reason the applicant reads (they may send another slip). 409 when the payment is not a pending slip.',
        params: PaymentParams,
        body: SlipVerificationSchema,
        response: { 200: dataEnvelope(FinancePaymentSchema) },
      },
    },
    async (request) => ({
      data: await verifyBankSlip(
        db,
        request.staff!,
        request.user!.id,
        request.params.paymentId,
        request.body,
        publicUrl,
      ),
    }),
  );
};
