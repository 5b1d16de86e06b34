import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { PlacesRowSchema, type PlacesInput } from '@kaminuza/shared';
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
