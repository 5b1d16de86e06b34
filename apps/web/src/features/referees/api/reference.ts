import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ReferenceRequestSchema, type ReferenceRequest, type ReferenceSubmit } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';

/*
 * A referee's link (ADR 054): what it asks, the PDF letter and the reference sent. No account: the
 * signed token in the address is the only credential, so nothing here is cached beyond the page.
 */

const referencePath = (token: string) => `/references/${encodeURIComponent(token)}`;

/** Answers that asking again cannot change: an unknown, expired or used link, a malformed one, the rate limit. */
const FINAL = new Set(['NOT_FOUND', 'INVALID_ARGUMENT', 'RESOURCE_EXHAUSTED']);

export const referenceKey = (token: string) => ['reference', token] as const;

export const referenceQuery = (token: string) =>
  queryOptions({
    queryKey: referenceKey(token),
    queryFn: ({ signal }) => api(referencePath(token), ReferenceRequestSchema, { signal }),
    retry: (failures, error) => !(error instanceof ApiError && FINAL.has(error.status)) && failures < 1,
    // The request does not change while the referee writes: never read again behind their back.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** What the link asks of the referee; not asked again once the reference is sent (`enabled` false). */
export function useReference(token: string, enabled: boolean) {
  return useQuery({ ...referenceQuery(token), enabled });
}

/** A PDF upload may take minutes on a slow connection. */
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

const UploadedSchema = z.object({ file_name: z.string() });

/** Sends the PDF as the request's body, with its name; refusals come back as the shared client's ApiError. */
export function uploadLetter(token: string, file: File): Promise<{ file_name: string }> {
  return api(`${referencePath(token)}/letter`, UploadedSchema, {
    method: 'PUT',
    body: file,
    headers: { 'content-type': 'application/pdf', 'x-file-name': encodeURIComponent(file.name) },
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** Uploads (or replaces) the PDF letter; the request then names it, should the page be opened again. */
export function useUploadLetter(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadLetter(token, file),
    onSuccess: ({ file_name }) =>
      queryClient.setQueryData<ReferenceRequest>(referenceKey(token), (old) =>
        old ? { ...old, letter_file_name: file_name } : old,
      ),
  });
}

/** Sends the reference (204); the link is then used up: the page stops asking for the request. */
export function useSendReference(token: string) {
  return useMutation({
    mutationFn: (reference: ReferenceSubmit) =>
      api(referencePath(token), z.undefined(), { method: 'POST', body: reference }),
  });
}
