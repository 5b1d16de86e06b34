import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { InvitationSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const getInvitations = (partnerId: string, signal?: AbortSignal) =>
  api(partnerPath(partnerId, '/invitations'), z.array(InvitationSchema), { signal });

export const invitationsQuery = (partnerId: string) =>
  queryOptions({
    queryKey: teamKeys.invitations(partnerId),
    queryFn: ({ signal }) => getInvitations(partnerId, signal),
  });

export function useInvitations(partnerId: string) {
  return useQuery(invitationsQuery(partnerId));
}
