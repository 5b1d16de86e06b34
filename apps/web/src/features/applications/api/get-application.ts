import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApplicationDraftSchema } from '@kaminuza/shared';
import { api, ApiError } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

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
  });

/** The draft with its form, answers and version, for the application screen. */
export function useApplication(id: string | null) {
  return useQuery({ ...applicationQuery(id ?? ''), enabled: id !== null });
}
