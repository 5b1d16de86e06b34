import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApplyContextSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { applicationKeys } from './keys.ts';

export const getApplyContext = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/application`, ApplyContextSchema, { signal });

export const applyContextQuery = (partnerId: string) =>
  queryOptions({
    queryKey: applicationKeys.context(partnerId),
    queryFn: ({ signal }) => getApplyContext(partnerId, signal),
    // An unknown institution stays unknown: asking again would only delay the not-found view.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 'NOT_FOUND') && failures < 1,
  });

/** The institution, its current cycle, its open programs, the fee and the student's application to it. */
export function useApplyContext(partnerId: string) {
  return useQuery(applyContextQuery(partnerId));
}
