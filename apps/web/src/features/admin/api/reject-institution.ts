import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminInstitutionSchema, type RejectInstitution } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY } from './query-string.ts';
import { showDecision } from './show-decision.ts';

export const rejectInstitution = ({ id, ...body }: RejectInstitution & { id: string }) =>
  api(`/admin/institutions/${encodeURIComponent(id)}/reject`, AdminInstitutionSchema, { method: 'POST', body });

export function useRejectInstitution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectInstitution,
    onSuccess: (institution) => showDecision(queryClient, institution),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEY }),
  });
}
