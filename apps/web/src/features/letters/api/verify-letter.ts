import { queryOptions, useQuery } from '@tanstack/react-query';
import { LetterVerificationSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';

export const verifyLetter = (code: string, signal?: AbortSignal) =>
  api(`/letters/${encodeURIComponent(code)}`, LetterVerificationSchema, { signal });

/** Answers that asking again cannot change: an unknown code, a malformed one, the rate limit. */
const FINAL = new Set(['NOT_FOUND', 'INVALID_ARGUMENT', 'RESOURCE_EXHAUSTED']);

export const letterVerificationQuery = (code: string) =>
  queryOptions({
    queryKey: ['letters', code] as const,
    queryFn: ({ signal }) => verifyLetter(code, signal),
    retry: (failures, error) => !(error instanceof ApiError && FINAL.has(error.status)) && failures < 1,
    staleTime: Infinity,
  });

/** What a verification code proves: the name, institution, program and decision of the letter it was printed on. */
export function useLetterVerification(code: string | null) {
  return useQuery({ ...letterVerificationQuery(code ?? ''), enabled: code !== null });
}
