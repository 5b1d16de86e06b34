import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AcknowledgedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { invalidateProgramsSetup } from './invalidate-setup.ts';

export const deleteCampus = (partnerId: string, campusId: string) =>
  api(`/partners/${encodeURIComponent(partnerId)}/campuses/${encodeURIComponent(campusId)}`, AcknowledgedSchema, {
    method: 'DELETE',
  });

export function useDeleteCampus(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (campusId: string) => deleteCampus(partnerId, campusId),
    onSuccess: () => invalidateProgramsSetup(queryClient, partnerId),
  });
}
