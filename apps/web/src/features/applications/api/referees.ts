import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { RefereeSchema, type Referee, type RefereeInvite } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys, applicationPath } from './keys.ts';

const refereesPath = (id: string) => `${applicationPath(id)}/referees`;
const refereePath = (id: string, refereeId: string) => `${refereesPath(id)}/${encodeURIComponent(refereeId)}`;

/** Where the applicant downloads a letter they did not waive reading (a plain link: the browser saves it). */
export const refereeLetterUrl = (id: string, refereeId: string) => `/api/v1${refereePath(id, refereeId)}/letter`;

/** The application's referees with their status (invited, opened, letter received). */
export function useReferees(applicationId: string) {
  return useQuery({
    queryKey: applicationKeys.referees(applicationId),
    queryFn: ({ signal }) => api(refereesPath(applicationId), z.array(RefereeSchema), { signal }),
    // A referee may open the link or send the letter while the applicant looks.
    refetchInterval: 60_000,
  });
}

function useRefereesChange<Input>(applicationId: string, change: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: applicationKeys.referees(applicationId) }),
  });
}

export const useInviteReferee = (applicationId: string) =>
  useRefereesChange(applicationId, (input: RefereeInvite) =>
    api(refereesPath(applicationId), RefereeSchema, { method: 'POST', body: input }),
  );

export const useResendInvitation = (applicationId: string) =>
  useRefereesChange(applicationId, (referee: Referee) =>
    api(`${refereePath(applicationId, referee.id)}/resend`, RefereeSchema, { method: 'POST' }),
  );

export const useRemoveReferee = (applicationId: string) =>
  useRefereesChange(applicationId, (referee: Referee) =>
    api(refereePath(applicationId, referee.id), z.undefined(), { method: 'DELETE' }),
  );
