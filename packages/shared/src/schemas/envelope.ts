import { z } from 'zod';
import { ERROR_REASONS, ERROR_STATUS, type ErrorStatus } from '../errors.ts';

const statuses = Object.keys(ERROR_STATUS) as [ErrorStatus, ...ErrorStatus[]];

export const ErrorBodySchema = z.object({
  error: z.object({
    status: z.enum(statuses),
    message: z.string(),
    details: z.unknown().optional(),
    reason: z.enum(ERROR_REASONS).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Success envelope: `{ data: T }`. */
export function dataEnvelope<T extends z.core.$ZodType>(data: T) {
  return z.object({ data });
}

export const HealthSchema = z.object({ status: z.literal('ok') });
export const ReadySchema = z.object({
  /** `draining`: the instance is shutting down and finishing what it has; send new requests elsewhere. */
  status: z.enum(['ready', 'not_ready', 'draining']),
  /**
   * `storage` is reported, not required: an unreachable bucket fails document reads and uploads, not
   * the rest, and every instance shares it, so it does not take the instance out of the load balancer.
   */
  checks: z.object({ database: z.enum(['ok', 'failed']), storage: z.enum(['ok', 'failed']) }),
});
