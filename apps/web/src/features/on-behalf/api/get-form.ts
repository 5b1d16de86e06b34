import { queryOptions, useQuery } from '@tanstack/react-query';
import { OnBehalfFormSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { onBehalfKey } from './get-setup.ts';

export const getOnBehalfForm = (partnerId: string, programId: string, signal?: AbortSignal) =>
  api(
    `/partners/${encodeURIComponent(partnerId)}/submissions/form?program_id=${encodeURIComponent(programId)}`,
    OnBehalfFormSchema,
    { signal },
  );

/** The form applicants to `programId` answer in the current cycle. */
export const onBehalfFormQuery = (partnerId: string, programId: string) =>
  queryOptions({
    queryKey: [...onBehalfKey(partnerId), 'form', programId],
    queryFn: ({ signal }) => getOnBehalfForm(partnerId, programId, signal),
  });

export function useOnBehalfForm(partnerId: string, programId: string) {
  return useQuery({ ...onBehalfFormQuery(partnerId, programId), enabled: partnerId !== '' && programId !== '' });
}
