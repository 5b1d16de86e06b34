import type { QueryClient } from '@tanstack/react-query';
import type { AdminInstitution, AdminInstitutionPage } from '@kaminuza/shared';
import { ADMIN_QUERY_KEY } from './query-string.ts';

/**
 * Shows a decision at once, before the lists are fetched again: the institution leaves the review
 * queue (only pending institutions can be decided) and takes its new status in the directory.
 */
export function showDecision(queryClient: QueryClient, institution: AdminInstitution): void {
  queryClient.setQueriesData<AdminInstitutionPage>({ queryKey: [...ADMIN_QUERY_KEY, 'institutions'] }, (page) =>
    page?.items.some((item) => item.id === institution.id)
      ? { ...page, items: page.items.filter((item) => item.id !== institution.id), total: page.total - 1 }
      : page,
  );
  queryClient.setQueriesData<AdminInstitutionPage>({ queryKey: [...ADMIN_QUERY_KEY, 'universities'] }, (page) =>
    page ? { ...page, items: page.items.map((item) => (item.id === institution.id ? institution : item)) } : page,
  );
}
