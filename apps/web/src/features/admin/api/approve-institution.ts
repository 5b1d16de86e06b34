import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminInstitutionSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY } from './query-string.ts';
import { showDecision } from './show-decision.ts';

export const approveInstitution = (id: string) =>
  api(`/admin/institutions/${encodeURIComponent(id)}/approve`, AdminInstitutionSchema, { method: 'POST' });

export function useApproveInstitution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveInstitution,
    onSuccess: (institution) => showDecision(queryClient, institution),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEY }),
  });
}
