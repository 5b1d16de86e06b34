import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormSchema, type FormUpdate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { formQuery } from './get-form.ts';
import { formsQuery } from './get-forms.ts';

export const updateForm = (partnerId: string, formId: string, input: FormUpdate) =>
  api(`/partners/${encodeURIComponent(partnerId)}/forms/${encodeURIComponent(formId)}`, FormSchema, {
    method: 'PUT',
    body: input,
  });

export function useUpdateForm(partnerId: string, formId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FormUpdate) => updateForm(partnerId, formId, input),
    onSuccess: (form) => {
      queryClient.setQueryData(formQuery(partnerId, formId).queryKey, form);
      return queryClient.invalidateQueries({ queryKey: formsQuery(partnerId).queryKey, exact: true });
    },
  });
}
