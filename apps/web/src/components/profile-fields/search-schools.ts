import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SchoolPageSchema } from '@kaminuza/shared';
import { api } from '../../lib/api-client.ts';

export const searchSchools = (q: string, country: string, signal?: AbortSignal) =>
  api(`/schools?${new URLSearchParams({ q, country })}`, SchoolPageSchema, signal ? { signal } : {});

export const schoolsQuery = (q: string, country: string) =>
  queryOptions({
    queryKey: ['schools', q, country],
    queryFn: ({ signal }) => searchSchools(q, country, signal),
    enabled: q.trim().length >= 2,
    placeholderData: keepPreviousData,
  });

export function useSchoolSearch(q: string, country: string) {
  return useQuery(schoolsQuery(q, country));
}
