import type { QueryClient } from '@tanstack/react-query';

/**
 * What a change of campuses or programs makes stale: the campus and program lists, the cycles (a deleted
 * program leaves them) and the institution's profile (its program count).
 */
export function invalidateProgramsSetup(queryClient: QueryClient, partnerId: string) {
  return Promise.all(
    ['campuses', 'programs', 'cycles', 'profile'].map((part) =>
      queryClient.invalidateQueries({ queryKey: ['partner', partnerId, part] }),
    ),
  );
}
