import { useMutation, useQueryClient } from '@tanstack/react-query';
import { StaffMemberSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const makePrimaryContact = (partnerId: string, staffId: string) =>
  api(partnerPath(partnerId, `/staff/${encodeURIComponent(staffId)}/primary-contact`), StaffMemberSchema, {
    method: 'POST',
  });

export function useMakePrimaryContact(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (staffId: string) => makePrimaryContact(partnerId, staffId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members(partnerId) }),
  });
}
