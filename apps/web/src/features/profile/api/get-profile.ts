import { queryOptions, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, StudentProfileSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getProfile = (signal?: AbortSignal) =>
  api('/students/me/profile', StudentProfileSchema, signal ? { signal } : {});

export const profileQuery = () =>
  queryOptions({
    queryKey: ['students', 'me', 'profile'],
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: CACHE_TTL_MS.students,
  });

export function useProfile() {
  return useQuery(profileQuery());
}
