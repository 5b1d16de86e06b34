import { queryOptions, useQuery } from '@tanstack/react-query';
import { StudentDocumentsSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';

export const getDocuments = () => api('/students/me/documents', StudentDocumentsSchema);

export const documentsQuery = () => queryOptions({ queryKey: ['students', 'me', 'documents'], queryFn: getDocuments });

export function useDocuments() {
  return useQuery(documentsQuery());
}
