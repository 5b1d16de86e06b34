import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AccountDeletionSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { accountDataKeys } from './keys.ts';

export const cancelDeletion = () => api('/me/deletion', AccountDeletionSchema, { method: 'DELETE' });

export function useCancelDeletion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelDeletion,
    onSuccess: (deletion) => queryClient.setQueryData(accountDataKeys.deletion, deletion),
  });
}
