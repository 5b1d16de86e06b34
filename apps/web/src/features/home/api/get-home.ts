import { queryOptions, useQuery } from '@tanstack/react-query';
import { StudentHomeSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const homeKeys = { home: ['students', 'me', 'home'] as const };

export const getHome = (signal?: AbortSignal) => api('/students/me/home', StudentHomeSchema, { signal });

export const homeQuery = () => queryOptions({ queryKey: homeKeys.home, queryFn: ({ signal }) => getHome(signal) });

/** The student's home: completion with what is missing, and the next steps in order. */
export function useHome() {
  return useQuery(homeQuery());
}
