import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { forgetDiscardedDraft, useDiscardDraft } from '../api/discard-draft.ts';
import { deleteDeviceDraft } from './device-drafts.ts';

/** What the applications list says after a draft was discarded (router state). */
export interface DiscardedState {
  discarded: string;
}

export const discardedName = (state: unknown): string | null =>
  state && typeof state === 'object' && typeof (state as Partial<DiscardedState>).discarded === 'string'
    ? (state as DiscardedState).discarded
    : null;

/**
 * Discard draft, asked first: deletes the application in progress and goes to the applications list,
 * which says it was done. `onDiscarded` lets the open form stop its autosave before it is left.
 */
export function DiscardDraftButton({
  applicationId,
  partnerId,
  partnerName,
  programName,
  onDiscarded,
}: {
  applicationId: string;
  partnerId: string;
  partnerName: string;
  programName: string;
  onDiscarded?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const discard = useDiscardDraft();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);

  const confirm = () => {
    discard.mutate(applicationId, {
      onSuccess: () => {
        onDiscarded?.();
        // The device's copy would otherwise offer the deleted answers again.
        void deleteDeviceDraft(applicationId);
        setAsking(false);
        const state: DiscardedState = { discarded: partnerName };
        void Promise.resolve(navigate(paths.student.applications, { state })).then(() =>
          forgetDiscardedDraft(queryClient, applicationId, partnerId),
        );
      },
    });
  };

  return (
    <>
      <button
        type="button"
        className="btn border border-danger bg-surface text-danger hover:bg-surface-muted"
        onClick={() => {
          discard.reset();
          setAsking(true);
        }}
      >
        {t('applications.discard.button')}
        <span className="sr-only">, {partnerName}</span>
      </button>
      {asking && (
        <ConfirmDialog
          title={t('applications.discard.title')}
          description={t('applications.discard.text', { partner: partnerName, program: programName })}
          confirmLabel={t('applications.discard.confirm')}
          cancelLabel={t('applications.discard.cancel')}
          pending={discard.isPending}
          error={discard.isError ? t(errorMessageKey(discard.error)) : undefined}
          onConfirm={confirm}
          onClose={() => setAsking(false)}
        />
      )}
    </>
  );
}
