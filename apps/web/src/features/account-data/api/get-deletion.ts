import { queryOptions, useQuery } from '@tanstack/react-query';
import { AccountDeletionSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { accountDataKeys } from './keys.ts';

export const getDeletion = (signal?: AbortSignal) => api('/me/deletion', AccountDeletionSchema, { signal });

export const deletionQuery = () =>
  queryOptions({ queryKey: accountDataKeys.deletion, queryFn: ({ signal }) => getDeletion(signal) });

/** When the caller's account is scheduled to be deleted, or null. */
export function useDeletion() {
  return useQuery(deletionQuery());
}
