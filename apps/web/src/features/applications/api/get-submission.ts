import { queryOptions, useQuery } from '@tanstack/react-query';
import { SubmissionReceiptSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

export const getSubmission = (id: string, signal?: AbortSignal) =>
  api(`${applicationPath(id)}/submission`, SubmissionReceiptSchema, { signal });

export const submissionQuery = (id: string) =>
  queryOptions({
    queryKey: applicationKeys.submission(id),
    queryFn: ({ signal }) => getSubmission(id, signal),
    retry: (failures, error) => !(error instanceof ApiError && error.status === 'NOT_FOUND') && failures < 1,
  });

/** The receipt of a submitted application: its reference, program, campus, date and payment. */
export function useSubmission(id: string | null) {
  return useQuery({ ...submissionQuery(id ?? ''), enabled: id !== null });
}
