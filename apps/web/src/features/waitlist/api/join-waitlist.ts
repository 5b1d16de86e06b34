import { useMutation } from '@tanstack/react-query';
import { WaitlistEntrySchema, type JoinWaitlist } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const joinWaitlist = (input: JoinWaitlist) =>
  api('/waitlist', WaitlistEntrySchema, { method: 'POST', body: input });

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist });
}
