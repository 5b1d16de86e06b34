import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdmissionLetterIssuedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

export const getLetter = (id: string, signal?: AbortSignal) =>
  api(`${applicationPath(id)}/decision/letter`, AdmissionLetterIssuedSchema, { signal });

export const letterQuery = (id: string) =>
  queryOptions({
    queryKey: applicationKeys.letter(id),
    queryFn: ({ signal }) => getLetter(id, signal),
    // A letter is issued once and never changes afterwards.
    staleTime: Infinity,
  });

/** The admission letter issued with an accepted decision. */
export function useLetter(id: string) {
  return useQuery(letterQuery(id));
}
