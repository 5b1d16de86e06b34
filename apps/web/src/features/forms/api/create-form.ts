import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormSchema, type FormCreate } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { formQuery } from './get-form.ts';
import { formsQuery } from './get-forms.ts';

export const createForm = (partnerId: string, input: FormCreate) =>
  api(`/partners/${encodeURIComponent(partnerId)}/forms`, FormSchema, { method: 'POST', body: input });

export function useCreateForm(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FormCreate) => createForm(partnerId, input),
    onSuccess: (form) => {
      queryClient.setQueryData(formQuery(partnerId, form.id).queryKey, form);
      return queryClient.invalidateQueries({ queryKey: formsQuery(partnerId).queryKey, exact: true });
    },
  });
}
