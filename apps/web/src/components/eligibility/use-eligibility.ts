import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ProgramEligibilitySchema } from '@kaminuza/shared';
import { api } from '../../lib/api-client.ts';

/** The signed-in student's eligibility for an institution's programs (read again after a profile change). */
export const eligibilityQuery = (partnerId: string) =>
  queryOptions({
    queryKey: ['students', 'me', 'eligibility', partnerId],
    queryFn: () =>
      api(`/students/me/eligibility?partner_id=${encodeURIComponent(partnerId)}`, z.array(ProgramEligibilitySchema)),
  });

export function useEligibility(partnerId: string | null, enabled = true) {
  return useQuery({ ...eligibilityQuery(partnerId ?? ''), enabled: enabled && partnerId !== null });
}
