import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AcknowledgedSchema, type DocumentType } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { profileQuery } from './get-profile.ts';
import { documentsQuery } from './get-documents.ts';

export const deleteDocument = (type: DocumentType) =>
  api(`/students/me/documents/${type}`, AcknowledgedSchema, { method: 'DELETE' });

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: documentsQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: profileQuery().queryKey }),
      ]),
  });
}
