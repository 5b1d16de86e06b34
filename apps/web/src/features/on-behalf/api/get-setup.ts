import { queryOptions, useQuery } from '@tanstack/react-query';
import { OnBehalfSetupSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const onBehalfKey = (partnerId: string) => ['partner', partnerId, 'on-behalf'] as const;

export const getOnBehalfSetup = (partnerId: string, signal?: AbortSignal) =>
  api(`/partners/${encodeURIComponent(partnerId)}/submissions/programs`, OnBehalfSetupSchema, { signal });

/** The current cycle and the programs open in it, with the campuses offering each. */
export const onBehalfSetupQuery = (partnerId: string) =>
  queryOptions({
    queryKey: [...onBehalfKey(partnerId), 'setup'],
    queryFn: ({ signal }) => getOnBehalfSetup(partnerId, signal),
  });

export function useOnBehalfSetup(partnerId: string) {
  return useQuery({ ...onBehalfSetupQuery(partnerId), enabled: partnerId !== '' });
}
