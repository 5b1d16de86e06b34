import { queryOptions, useQuery } from '@tanstack/react-query';
import { StudentDecisionSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

export const getDecision = (id: string, signal?: AbortSignal) =>
  api(`${applicationPath(id)}/decision`, StudentDecisionSchema, { signal });

export const decisionQuery = (id: string) =>
  queryOptions({
    queryKey: applicationKeys.decision(id),
    queryFn: ({ signal }) => getDecision(id, signal),
    // 404 is the usual answer until the institution releases its decision: asking again changes nothing.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 'NOT_FOUND') && failures < 1,
  });

/** The released decision on one of the student's applications; 404 while none is released. */
export function useDecision(id: string | null) {
  return useQuery({ ...decisionQuery(id ?? ''), enabled: id !== null });
}
