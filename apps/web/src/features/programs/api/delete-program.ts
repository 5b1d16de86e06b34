import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AcknowledgedSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { invalidateProgramsSetup } from './invalidate-setup.ts';

export const deleteProgram = (partnerId: string, programId: string) =>
  api(`/partners/${encodeURIComponent(partnerId)}/programs/${encodeURIComponent(programId)}`, AcknowledgedSchema, {
    method: 'DELETE',
  });

export function useDeleteProgram(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (programId: string) => deleteProgram(partnerId, programId),
    onSuccess: () => invalidateProgramsSetup(queryClient, partnerId),
  });
}
