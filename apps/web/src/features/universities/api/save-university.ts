import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { SavedUniversitySchema, type UniversityDetail, type UniversityPage } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { UNIVERSITIES_KEY } from './search-universities.ts';

export interface SaveUniversityInput {
  partnerId: string;
  saved: boolean;
}

/** Adds a university to the student's list (PUT) or removes it (DELETE); both are idempotent. */
export const saveUniversity = ({ partnerId, saved }: SaveUniversityInput) =>
  api(`/students/me/saved-universities/${encodeURIComponent(partnerId)}`, SavedUniversitySchema, {
    method: saved ? 'PUT' : 'DELETE',
  });

type Snapshot = Array<[QueryKey, unknown]>;

/**
 * The list toggle. The new state shows at once in every cached list and in the details (optimistic);
 * a failure puts the cache back as it was; either way the lists are fetched again afterwards, since
 * "My list" and its total change.
 */
export function useSaveUniversity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveUniversity,
    onMutate: async ({ partnerId, saved }): Promise<Snapshot> => {
      await client.cancelQueries({ queryKey: [UNIVERSITIES_KEY] });
      const snapshot: Snapshot = client.getQueriesData({ queryKey: [UNIVERSITIES_KEY] });
      client.setQueriesData<UniversityPage>({ queryKey: [UNIVERSITIES_KEY, 'list'] }, (page) =>
        page ? { ...page, items: page.items.map((item) => (item.id === partnerId ? { ...item, saved } : item)) } : page,
      );
      client.setQueryData<UniversityDetail>([UNIVERSITIES_KEY, 'detail', partnerId], (detail) =>
        detail ? { ...detail, saved } : detail,
      );
      return snapshot;
    },
    onError: (_error, _input, snapshot) => {
      for (const [key, data] of snapshot ?? []) client.setQueryData(key, data);
    },
    onSettled: () => client.invalidateQueries({ queryKey: [UNIVERSITIES_KEY, 'list'] }),
  });
}
