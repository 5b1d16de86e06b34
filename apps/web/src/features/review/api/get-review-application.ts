import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, ReviewApplicationSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const getReviewApplication = (partnerId: string, submissionId: string, signal?: AbortSignal) =>
  api(submissionPath(partnerId, submissionId), ReviewApplicationSchema, { signal });

export const reviewApplicationQuery = (partnerId: string, submissionId: string) =>
  queryOptions({
    queryKey: reviewKeys.application(partnerId, submissionId),
    queryFn: ({ signal }) => getReviewApplication(partnerId, submissionId, signal),
    staleTime: CACHE_TTL_MS.answers,
  });

export function useReviewApplication(partnerId: string, submissionId: string) {
  return useQuery({ ...reviewApplicationQuery(partnerId, submissionId), enabled: partnerId !== '' });
}

/** The download address of a submitted document (an attachment the browser saves). */
export const reviewDocumentUrl = (partnerId: string, submissionId: string, documentId: string) =>
  `/api/v1${submissionPath(partnerId, submissionId, `/documents/${encodeURIComponent(documentId)}/file`)}`;

/** The download address of a referee's PDF letter (an attachment the browser saves). */
export const reviewRefereeLetterUrl = (partnerId: string, submissionId: string, refereeId: string) =>
  `/api/v1${submissionPath(partnerId, submissionId, `/referees/${encodeURIComponent(refereeId)}/letter`)}`;
