import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

/** Deletes an application in progress (204); a submitted or paid one is refused with 409. */
export const discardDraft = (id: string) => api(applicationPath(id), z.undefined(), { method: 'DELETE' });

export function useDiscardDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: discardDraft,
    // The cards refresh where they are shown; the start screen and the draft are forgotten once the
    // student has left the form (forgetDiscardedDraft).
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: applicationKeys.cards }),
  });
}

/**
 * Drops the discarded draft and its institution's start screen from the cache, so the next visit starts
 * afresh. Called after leaving the form: while it is still mounted (the next screen loading), a fresh
 * start screen would find no application and send the student there instead.
 */
export function forgetDiscardedDraft(queryClient: QueryClient, id: string, partnerId: string) {
  queryClient.removeQueries({ queryKey: applicationKeys.draft(id) });
  queryClient.removeQueries({ queryKey: applicationKeys.context(partnerId) });
}
