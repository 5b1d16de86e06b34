import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AccountDeletionSchema, type DeletionRequest } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { accountDataKeys } from './keys.ts';

export const scheduleDeletion = (input: DeletionRequest) =>
  api('/me/deletion', AccountDeletionSchema, { method: 'POST', body: input });

/** Schedules the deletion of the account after the grace period; the current password confirms it. */
export function useScheduleDeletion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scheduleDeletion,
    onSuccess: (deletion) => queryClient.setQueryData(accountDataKeys.deletion, deletion),
  });
}
