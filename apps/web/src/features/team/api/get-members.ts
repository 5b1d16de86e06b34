import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { StaffMemberSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { partnerPath, teamKeys } from './keys.ts';

export const getMembers = (partnerId: string, signal?: AbortSignal) =>
  api(partnerPath(partnerId, '/staff'), z.array(StaffMemberSchema), { signal });

export const membersQuery = (partnerId: string) =>
  queryOptions({ queryKey: teamKeys.members(partnerId), queryFn: ({ signal }) => getMembers(partnerId, signal) });

export function useMembers(partnerId: string) {
  return useQuery(membersQuery(partnerId));
}
