import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AcknowledgedSchema, type DocumentType } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { documentsQuery } from './get-documents.ts';

export const deleteDocument = (type: DocumentType) =>
  api(`/students/me/documents/${type}`, AcknowledgedSchema, { method: 'DELETE' });

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSettled: () => queryClient.invalidateQueries({ queryKey: documentsQuery().queryKey }),
  });
}
