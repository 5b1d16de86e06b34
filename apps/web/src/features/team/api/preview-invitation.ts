import { queryOptions, useQuery } from '@tanstack/react-query';
import { InvitationPreviewSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

/** A POST that changes nothing: the token travels in the body so no log line holds a usable link. */
export const previewInvitation = (token: string, signal?: AbortSignal) =>
  api('/auth/invitations/preview', InvitationPreviewSchema, { method: 'POST', body: { token }, signal });

export const invitationPreviewQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => previewInvitation(token, signal),
    retry: false,
    staleTime: Infinity,
  });

export function useInvitationPreview(token: string) {
  return useQuery({ ...invitationPreviewQuery(token), enabled: token !== '' });
}
