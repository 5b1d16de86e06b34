import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ExamSittingSchema, type ExamSittingInput, type StudentProfile } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { profileQuery } from './get-profile.ts';

const SittingsSchema = z.array(ExamSittingSchema);
const path = '/students/me/exam-sittings';

type Change =
  | { action: 'add'; input: ExamSittingInput }
  | { action: 'change'; id: string; input: ExamSittingInput }
  | { action: 'remove'; id: string };

export const changeSittings = (change: Change) => {
  if (change.action === 'add') return api(path, SittingsSchema, { method: 'POST', body: change.input });
  if (change.action === 'change')
    return api(`${path}/${change.id}`, SittingsSchema, { method: 'PUT', body: change.input });
  return api(`${path}/${change.id}`, SittingsSchema, { method: 'DELETE' });
};

/** Adds, changes or removes a sitting; the profile is read again for its completion. */
export function useChangeSittings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeSittings,
    onSuccess: async (sittings) => {
      queryClient.setQueryData(profileQuery().queryKey, (profile: StudentProfile | undefined) =>
        profile ? { ...profile, exam_sittings: sittings } : profile,
      );
      await queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
      // Eligibility is read on the results.
      await queryClient.invalidateQueries({ queryKey: ['students', 'me', 'eligibility'] });
    },
  });
}
