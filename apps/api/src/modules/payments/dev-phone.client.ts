import { z } from 'zod';
import type { DevPhonePrompt } from '@kaminuza/shared';
import { decimalToMinor, ProviderError } from './providers/mobile-money.ts';

/**
 * The dev phone's client of the provider simulators: their `/_simulator/` paths over HTTP, the payer's
 * side of each (its prompts, and approving or declining one). It needs only their base URLs.
 */

/** A running simulator: the provider it stands in for and its base URL. */
export interface SimulatorEndpoint {
  provider: string;
  url: string;
}

const TIMEOUT_MS = 3_000;

/** The fields every simulator lists its prompts with (each adds its provider's own, ignored here). */
const ListedPromptSchema = z.object({
  id: z.string().min(1),
  msisdn: z.string(),
  amount: z.union([z.string(), z.number()]),
  currency: z.string().regex(/^[A-Z]{3}$/),
  status: z.string(),
  createdAt: z.string(),
});

/** The simulators' statuses (MoMo's and Daraja's PENDING/SUCCESSFUL/FAILED, Airtel's TIP/TS/TF/TE). */
function statusOf(status: string): DevPhonePrompt['status'] {
  if (status === 'PENDING' || status === 'TIP') return 'pending';
  if (status === 'SUCCESSFUL' || status === 'TS') return 'succeeded';
  return 'failed';
}

async function call(endpoint: SimulatorEndpoint, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(`${endpoint.url}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new ProviderError('unreachable', `the ${endpoint.provider} simulator did not answer`);
  }
}

/** One simulator's prompts, in the dev phone's shape; a prompt it lists in another shape is left out. */
export async function simulatorPrompts(endpoint: SimulatorEndpoint): Promise<DevPhonePrompt[]> {
  const response = await call(endpoint, '/_simulator/prompts');
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderError(
      'unreachable',
      `the ${endpoint.provider} simulator answered ${response.status}`,
      response.status,
    );
  }
  const listed = z.array(z.unknown()).safeParse(await response.json().catch(() => null));
  if (!listed.success) throw new ProviderError('refused', `the ${endpoint.provider} simulator listed no prompts`);
  const prompts: DevPhonePrompt[] = [];
  for (const item of listed.data) {
    const prompt = ListedPromptSchema.safeParse(item).data;
    const amount = prompt ? decimalToMinor(String(prompt.amount), prompt.currency) : null;
    const created = prompt ? new Date(prompt.createdAt) : null;
    if (!prompt || amount === null || !created || Number.isNaN(created.getTime())) continue;
    prompts.push({
      provider: endpoint.provider,
      id: prompt.id,
      msisdn: prompt.msisdn,
      amount,
      currency: prompt.currency,
      status: statusOf(prompt.status),
      created_at: created.toISOString(),
    });
  }
  return prompts;
}

/**
 * Approves or declines a prompt as its payer would: 'done', or 'not_pending' when it was already answered
 * (or is not one of the simulator's).
 */
export async function decidePrompt(
  endpoint: SimulatorEndpoint,
  id: string,
  decision: 'approve' | 'decline',
): Promise<'done' | 'not_pending'> {
  const response = await call(endpoint, `/_simulator/prompts/${encodeURIComponent(id)}/${decision}`, {
    method: 'POST',
  });
  await response.body?.cancel();
  if (response.status === 204) return 'done';
  if (response.status === 409 || response.status === 404) return 'not_pending';
  throw new ProviderError(
    response.status >= 500 ? 'unreachable' : 'refused',
    `the ${endpoint.provider} simulator answered ${response.status}`,
    response.status,
  );
}
