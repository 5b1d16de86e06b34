import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { InstitutionDirectoryPageSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const searchInstitutions = (q: string, page: number, signal?: AbortSignal) =>
  api(
    `/auth/sign-up/partner/institutions?${new URLSearchParams({ q, page: String(page) })}`,
    InstitutionDirectoryPageSchema,
    { signal },
  );

export const institutionSearchQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: ['partner', 'institutions', q, page],
    queryFn: ({ signal }) => searchInstitutions(q, page, signal),
  });

/** Approved institutions to join, by name; the previous page stays on screen while the next loads. */
export function useInstitutionSearch(q: string, page: number, enabled: boolean) {
  return useQuery({ ...institutionSearchQuery(q, page), enabled, placeholderData: keepPreviousData });
}
