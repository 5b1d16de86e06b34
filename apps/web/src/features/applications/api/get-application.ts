import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApplicationDraftSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

const PENDING_PAYMENT_POLL_MS = 3000;

export const getApplication = (id: string, signal?: AbortSignal) =>
  api(applicationPath(id), ApplicationDraftSchema, { signal });

export const applicationQuery = (id: string) =>
  queryOptions({
    queryKey: applicationKeys.draft(id),
    queryFn: ({ signal }) => getApplication(id, signal),
    retry: (failures, error) => !(error instanceof ApiError && error.status === 'NOT_FOUND') && failures < 1,
    // The form owns its answers while it is open (autosave adopts each saved version): a background
    // refetch on focus would hand it a newer version it did not write and hide a conflict.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    staleTime: 0,
    // The provider confirms a payment by a callback to the api, moments after its checkout page answers:
    // a pending payment is looked at again until it settles.
    refetchInterval: (query) => (query.state.data?.payment?.status === 'pending' ? PENDING_PAYMENT_POLL_MS : false),
  });

/** The draft with its form, answers and version, for the application screen. */
export function useApplication(id: string | null) {
  return useQuery({ ...applicationQuery(id ?? ''), enabled: id !== null });
}
