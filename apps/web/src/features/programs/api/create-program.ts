import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProgramSchema, type ProgramInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { invalidateProgramsSetup } from './invalidate-setup.ts';

export const createProgram = (partnerId: string, input: ProgramInput) =>
  api(`/partners/${encodeURIComponent(partnerId)}/programs`, ProgramSchema, { method: 'POST', body: input });

export function useCreateProgram(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProgramInput) => createProgram(partnerId, input),
    onSuccess: () => invalidateProgramsSetup(queryClient, partnerId),
  });
}
