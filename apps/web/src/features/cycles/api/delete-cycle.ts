import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AcknowledgedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { cyclesQuery } from './get-cycles.ts';

export const deleteCycle = (partnerId: string, cycleId: string) =>
  api(`/partners/${encodeURIComponent(partnerId)}/cycles/${encodeURIComponent(cycleId)}`, AcknowledgedSchema, {
    method: 'DELETE',
  });

export function useDeleteCycle(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cycleId: string) => deleteCycle(partnerId, cycleId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cyclesQuery(partnerId).queryKey }),
  });
}
