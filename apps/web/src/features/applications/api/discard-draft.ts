import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

/** Deletes an application in progress (204); a submitted or paid one is refused with 409. */
export const discardDraft = (id: string) => api(applicationPath(id), z.undefined(), { method: 'DELETE' });

export function useDiscardDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: discardDraft,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: applicationKeys.draft(id) });
      // The cards and every start screen: the institution takes a new start.
      void queryClient.invalidateQueries({ queryKey: applicationKeys.cards });
      void queryClient.invalidateQueries({ queryKey: ['applications', 'context'] });
    },
  });
}
