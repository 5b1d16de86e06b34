import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApplicationDraftSchema, type ApplyContext, type StartApplication } from '@kaminuza/shared';
import { api } from '../../../lib/api-client.ts';
import { applicationKeys } from './keys.ts';

export const startApplication = (partnerId: string, input: StartApplication) =>
  api(`/partners/${encodeURIComponent(partnerId)}/application`, ApplicationDraftSchema, {
    method: 'POST',
    body: input,
  });

/** Starts the application to an institution (or answers the one the student already has in its cycle). */
export function useStartApplication(partnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartApplication) => startApplication(partnerId, input),
    onSuccess: (draft) => {
      queryClient.setQueryData(applicationKeys.draft(draft.id), draft);
      // The form finds the application through the start context: it must know it at once.
      queryClient.setQueryData<ApplyContext>(applicationKeys.context(partnerId), (context) =>
        context ? { ...context, application: draft } : context,
      );
      void queryClient.invalidateQueries({ queryKey: applicationKeys.context(partnerId) });
      void queryClient.invalidateQueries({ queryKey: applicationKeys.cards });
    },
  });
}
