import { z } from 'zod';

/**
 * The dev phone (/dev/phone, outside production only): the payment prompts of the local provider
 * simulators, which it approves or declines as the payer's phone would. Each simulator lists its prompts
 * with the same fields; the api gives them here in one shape, the amount in minor units.
 */

/** A simulated provider's name (mtn_momo, mpesa, airtel_money …): the api answers 404 for one not running. */
export const DevPhoneProviderSchema = z.string().regex(/^[a-z][a-z0-9_]{1,39}$/);

export const DEV_PHONE_PROMPT_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const DevPhonePromptSchema = z.object({
  provider: DevPhoneProviderSchema,
  /** The simulator's id of the prompt (MoMo's reference id, Daraja's CheckoutRequestID, our Airtel id). */
  id: z.string().min(1),
  msisdn: z.string(),
  /** Minor units of the currency. */
  amount: z.int().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  status: z.enum(DEV_PHONE_PROMPT_STATUSES),
  created_at: z.iso.datetime({ offset: true }),
});
export type DevPhonePrompt = z.infer<typeof DevPhonePromptSchema>;

/** Newest first. */
export const DevPhonePromptListSchema = z.array(DevPhonePromptSchema);

export const DevPhonePromptParamsSchema = z.object({
  provider: DevPhoneProviderSchema,
  id: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/),
  decision: z.enum(['approve', 'decline']),
});

/**
 * What the simulators do by the last three digits of the payer's number (the same table for each; see
 * apps/api/src/simulators): any other number waits for the dev phone.
 */
export const DEV_PHONE_SCRIPTS = [
  { suffix: '111', outcome: 'approve' },
  { suffix: '222', outcome: 'decline' },
  { suffix: '333', outcome: 'insufficient_funds' },
  { suffix: '444', outcome: 'timeout' },
  { suffix: '555', outcome: 'duplicate_callback' },
  { suffix: '666', outcome: 'late_success' },
  { suffix: '777', outcome: 'wrong_callback' },
  { suffix: '888', outcome: 'provider_specific' },
  { suffix: '999', outcome: 'unknown_payer' },
] as const;
