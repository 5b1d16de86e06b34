import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { TeamSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const getTeams = (partnerId: string, signal?: AbortSignal) =>
  api(partnerPath(partnerId, '/teams'), z.array(TeamSchema), { signal });

export const teamsQuery = (partnerId: string) =>
  queryOptions({ queryKey: teamKeys.teams(partnerId), queryFn: ({ signal }) => getTeams(partnerId, signal) });

export function useTeams(partnerId: string) {
  return useQuery(teamsQuery(partnerId));
}
