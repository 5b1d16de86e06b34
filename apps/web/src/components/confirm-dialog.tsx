import type { ReactNode } from 'react';
import { Dialog } from './dialog.tsx';
import { FormAlert } from './form/field.tsx';

/**
 * Asks before an action: one that cannot be undone (a deletion, a revocation: `danger`) or one that
 * changes who does what (`primary`). The action's refusal, if any, is shown in the dialog itself, so the
 * reader sees why nothing happened.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel,
  pending,
  error,
  onConfirm,
  onClose,
  tone = 'danger',
  fields,
}: {
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  pending: boolean;
  /** The translated failure of the last attempt. */
  error?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
  tone?: 'danger' | 'primary';
  /** What the action asks for besides the confirmation (a moment, an override), below the description. */
  fields?: ReactNode;
}) {
  return (
    <Dialog title={title} description={description} onClose={onClose}>
      {() => (
        <>
          {fields && <div className="flex flex-col gap-3">{fields}</div>}
          {error && <FormAlert>{error}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {cancelLabel}
            </button>
            <button
              type="button"
              className={
                tone === 'danger'
                  ? 'btn border border-danger bg-surface text-danger hover:bg-surface-muted'
                  : 'btn-primary'
              }
              disabled={pending}
              onClick={onConfirm}
            >
              {confirmLabel}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
