import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { cyclesQuery } from './get-cycles.ts';

/**
 * Makes a cycle the institution's current one (null: none), through the settings api. Only success
 * matters here: the cycles list is read again to show the new current cycle.
 */
export const setCurrentCycle = (partnerId: string, cycleId: string | null) =>
  api(`/partners/${encodeURIComponent(partnerId)}/settings/current-cycle`, z.unknown(), {
    method: 'PUT',
    body: { cycle_id: cycleId },
  });

export function useSetCurrentCycle(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cycleId: string | null) => setCurrentCycle(partnerId, cycleId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: cyclesQuery(partnerId).queryKey }),
        queryClient.invalidateQueries({ queryKey: ['partner', partnerId, 'settings'] }),
      ]),
  });
}
