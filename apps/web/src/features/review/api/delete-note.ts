import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const deleteNote = (partnerId: string, submissionId: string, noteId: string) =>
  api(submissionPath(partnerId, submissionId, `/notes/${encodeURIComponent(noteId)}`), z.undefined(), {
    method: 'DELETE',
  });

export function useDeleteNote(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noteId: string) => deleteNote(partnerId, submissionId, noteId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
  });
}
