import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { DevPhonePromptListSchema, type DevPhonePrompt } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getDevPhonePrompts = (signal?: AbortSignal) =>
  api('/dev/phone/prompts', DevPhonePromptListSchema, { signal });

/** Always refetched: prompts arrive and settle while the page is open. */
export const devPhonePromptsQuery = () =>
  queryOptions({ queryKey: ['dev-phone'], queryFn: ({ signal }) => getDevPhonePrompts(signal), staleTime: 0 });

export function useDevPhonePrompts() {
  return useQuery({ ...devPhonePromptsQuery(), refetchInterval: 2_000 });
}

export type PromptDecision = 'approve' | 'decline';

export const decidePrompt = (prompt: Pick<DevPhonePrompt, 'provider' | 'id'>, decision: PromptDecision) =>
  api(
    `/dev/phone/prompts/${encodeURIComponent(prompt.provider)}/${encodeURIComponent(prompt.id)}/${decision}`,
    z.undefined(),
    { method: 'POST' },
  );

/** Approves or declines a prompt as the payer's phone would, then reloads the list. */
export function useDecidePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ prompt, decision }: { prompt: DevPhonePrompt; decision: PromptDecision }) =>
      decidePrompt(prompt, decision),
    onSettled: () => queryClient.invalidateQueries({ queryKey: devPhonePromptsQuery().queryKey }),
  });
}
