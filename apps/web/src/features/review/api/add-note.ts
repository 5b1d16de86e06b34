import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ReviewNoteSchema, type NoteCreate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { reviewKeys, submissionPath } from './keys.ts';

export const addNote = (partnerId: string, submissionId: string, note: NoteCreate) =>
  api(submissionPath(partnerId, submissionId, '/notes'), ReviewNoteSchema, { method: 'POST', body: note });

/** A first note moves a new application into review, so the queue is refreshed too. */
export function useAddNote(partnerId: string, submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: NoteCreate) => addNote(partnerId, submissionId, note),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.application(partnerId, submissionId) }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.queues(partnerId) }),
      ]),
  });
}
