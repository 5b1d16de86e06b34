import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProgramSchema, type ProgramInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { invalidateProgramsSetup } from './invalidate-setup.ts';

export const updateProgram = (partnerId: string, programId: string, input: ProgramInput) =>
  api(`/partners/${encodeURIComponent(partnerId)}/programs/${encodeURIComponent(programId)}`, ProgramSchema, {
    method: 'PUT',
    body: input,
  });

export function useUpdateProgram(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ProgramInput }) => updateProgram(partnerId, id, input),
    onSuccess: () => invalidateProgramsSetup(queryClient, partnerId),
  });
}
