import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CampusSchema, type CampusInput } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { invalidateProgramsSetup } from './invalidate-setup.ts';

export const updateCampus = (partnerId: string, campusId: string, input: CampusInput) =>
  api(`/partners/${encodeURIComponent(partnerId)}/campuses/${encodeURIComponent(campusId)}`, CampusSchema, {
    method: 'PUT',
    body: input,
  });

export function useUpdateCampus(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CampusInput }) => updateCampus(partnerId, id, input),
    onSuccess: () => invalidateProgramsSetup(queryClient, partnerId),
  });
}
