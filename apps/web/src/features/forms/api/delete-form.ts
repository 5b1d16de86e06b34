import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { formQuery } from './get-form.ts';
import { formsQuery } from './get-forms.ts';

export const deleteForm = (partnerId: string, formId: string) =>
  api(`/partners/${encodeURIComponent(partnerId)}/forms/${encodeURIComponent(formId)}`, z.object({ id: z.uuid() }), {
    method: 'DELETE',
  });

export function useDeleteForm(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (formId: string) => deleteForm(partnerId, formId),
    onSuccess: ({ id }) => {
      queryClient.removeQueries({ queryKey: formQuery(partnerId, id).queryKey });
      return queryClient.invalidateQueries({ queryKey: formsQuery(partnerId).queryKey, exact: true });
    },
  });
}
