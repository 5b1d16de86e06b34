import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CampusSchema, type CampusInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { invalidateProgramsSetup } from './invalidate-setup.ts';

export const createCampus = (partnerId: string, input: CampusInput) =>
  api(`/partners/${encodeURIComponent(partnerId)}/campuses`, CampusSchema, { method: 'POST', body: input });

export function useCreateCampus(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CampusInput) => createCampus(partnerId, input),
    onSuccess: () => invalidateProgramsSetup(queryClient, partnerId),
  });
}
