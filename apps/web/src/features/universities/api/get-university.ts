import { queryOptions, useQuery } from '@tanstack/react-query';
import { UniversityDetailSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { UNIVERSITIES_KEY } from './search-universities.ts';

export const getUniversity = (partnerId: string, signal?: AbortSignal) =>
  api(`/catalogue/universities/${encodeURIComponent(partnerId)}`, UniversityDetailSchema, { signal });

export const universityQuery = (partnerId: string) =>
  queryOptions({
    queryKey: [UNIVERSITIES_KEY, 'detail', partnerId],
    queryFn: ({ signal }) => getUniversity(partnerId, signal),
    // A missing university stays missing: asking again would only delay the not-found screen.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 'NOT_FOUND') && failures < 1,
  });

export function useUniversity(partnerId: string) {
  return useQuery(universityQuery(partnerId));
}
