import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormSchema } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { formQuery } from './get-form.ts';
import { formsQuery } from './get-forms.ts';

export const duplicateForm = (partnerId: string, formId: string, name: string) =>
  api(`/partners/${encodeURIComponent(partnerId)}/forms/${encodeURIComponent(formId)}/duplicate`, FormSchema, {
    method: 'POST',
    body: { name },
  });

export function useDuplicateForm(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ formId, name }: { formId: string; name: string }) => duplicateForm(partnerId, formId, name),
    onSuccess: (form) => {
      queryClient.setQueryData(formQuery(partnerId, form.id).queryKey, form);
      return queryClient.invalidateQueries({ queryKey: formsQuery(partnerId).queryKey, exact: true });
    },
  });
}
