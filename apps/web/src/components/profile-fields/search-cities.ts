import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CitySuggestionSchema } from '@kaminuza/shared';
import { api } from '../../lib/api-client.ts';

export const searchCities = (q: string, country: string, signal?: AbortSignal) =>
  api(
    `/geo/cities?${new URLSearchParams({ q, country, limit: '8' })}`,
    z.array(CitySuggestionSchema),
    signal ? { signal } : {},
  );

export const citiesQuery = (q: string, country: string) =>
  queryOptions({
    queryKey: ['geo', 'cities', q, country],
    queryFn: ({ signal }) => searchCities(q, country, signal),
    enabled: q.trim().length >= 2,
    placeholderData: keepPreviousData,
  });

export function useCitySearch(q: string, country: string) {
  return useQuery(citiesQuery(q, country));
}
