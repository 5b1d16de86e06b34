import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { PlacesRowSchema, WaitingListEntrySchema, type PlacesInput, type WaitingListQuery } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

const placesPath = (partnerId: string, cycleId: string) =>
  `/partners/${encodeURIComponent(partnerId)}/cycles/${encodeURIComponent(cycleId)}/places`;
const placesKey = (partnerId: string, cycleId: string) => ['partner', partnerId, 'cycles', cycleId, 'places'];

/** Each program of the cycle at each of its campuses, with its places and the offers holding them. */
export function usePlaces(partnerId: string, cycleId: string) {
  return useQuery({
    queryKey: placesKey(partnerId, cycleId),
    queryFn: ({ signal }) => api(placesPath(partnerId, cycleId), z.array(PlacesRowSchema), { signal }),
    enabled: partnerId !== '',
  });
}

export function useSetPlaces(partnerId: string, cycleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlacesInput) =>
      api(placesPath(partnerId, cycleId), z.array(PlacesRowSchema), { method: 'PUT', body: input }),
    onSuccess: (rows) => queryClient.setQueryData(placesKey(partnerId, cycleId), rows),
  });
}

const waitlistPath = (partnerId: string, cycleId: string) =>
  `/partners/${encodeURIComponent(partnerId)}/cycles/${encodeURIComponent(cycleId)}/waitlist`;

/** One place's waiting list, in its order. */
export function useWaitingList(partnerId: string, cycleId: string, place: WaitingListQuery) {
  return useQuery({
    queryKey: ['partner', partnerId, 'cycles', cycleId, 'waitlist', place.program_id, place.campus_id],
    queryFn: ({ signal }) =>
      api(
        `${waitlistPath(partnerId, cycleId)}?program_id=${encodeURIComponent(place.program_id)}&campus_id=${encodeURIComponent(place.campus_id)}`,
        z.array(WaitingListEntrySchema),
        { signal },
      ),
    enabled: partnerId !== '',
  });
}

export function useOrderWaitingList(partnerId: string, cycleId: string, place: WaitingListQuery) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (submissionIds: string[]) =>
      api(waitlistPath(partnerId, cycleId), z.array(WaitingListEntrySchema), {
        method: 'PUT',
        body: { ...place, submission_ids: submissionIds },
      }),
    onSuccess: (rows) =>
      queryClient.setQueryData(
        ['partner', partnerId, 'cycles', cycleId, 'waitlist', place.program_id, place.campus_id],
        rows,
      ),
  });
}
