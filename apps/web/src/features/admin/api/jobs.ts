import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminJobsSchema, JobRetriedSchema, type AdminJobsQuery } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { backgroundInterval } from '../../../lib/low-data.ts';
import { ADMIN_QUERY_KEY, queryString } from './query-string.ts';

/** Queues change on their own (jobs run, fail, retry): the section looks again this often while open. */
const JOBS_REFRESH_MS = 15_000;

export const getJobs = (params: AdminJobsQuery, signal?: AbortSignal) =>
  api(`/admin/jobs${queryString(params)}`, AdminJobsSchema, { signal });

export const jobsQuery = (params: AdminJobsQuery) =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_KEY, 'jobs', params],
    queryFn: ({ signal }) => getJobs(params, signal),
  });

export function useJobs(params: AdminJobsQuery) {
  return useQuery({
    ...jobsQuery(params),
    placeholderData: keepPreviousData,
    refetchInterval: backgroundInterval(JOBS_REFRESH_MS),
  });
}

export const retryJob = ({ queue, id }: { queue: string; id: string }) =>
  api(`/admin/jobs/${encodeURIComponent(queue)}/${encodeURIComponent(id)}/retry`, JobRetriedSchema, {
    method: 'POST',
  });

/** Puts a failed job back in its queue; the lists (and the audit log) are read again either way. */
export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEY }),
  });
}
