import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { UniversityPageSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

/** Every cached answer of this feature lives under this key, so one invalidation refreshes them all. */
export const UNIVERSITIES_KEY = 'universities';

/** The query string exactly as the API takes it (`type=a&type=b…`). */
export const searchUniversities = (query: string, signal?: AbortSignal) =>
  api(`/catalogue/universities${query ? `?${query}` : ''}`, UniversityPageSchema, { signal });

export const universitiesQuery = (query: string) =>
  queryOptions({
    queryKey: [UNIVERSITIES_KEY, 'list', query],
    queryFn: ({ signal }) => searchUniversities(query, signal),
  });

/** The previous page stays on screen while the next one loads, so results do not flash away. */
export function useUniversities(query: string) {
  return useQuery({ ...universitiesQuery(query), placeholderData: keepPreviousData });
}
