import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFUND_NOTE_MAX } from '@kaminuza/shared';
import type { z } from 'zod';
import { FormAlert, TextAreaField } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';

/**
 * A note staff write before a finance decision is recorded (how a refund was made, what a difference
 * turned out to be): checked by the same schema as the server's, the server's refusal shown under it.
 */
export function NoteForm({
  schema,
  label,
  confirm,
  saving,
  cancel,
  pending,
  error,
  autoFocus = true,
  secondary = false,
  onSubmit,
  onCancel,
}: {
  schema: z.ZodType<{ note: string }>;
  label: string;
  confirm: string;
  saving: string;
  cancel: string;
  /** Disables the confirm button; `saving` shows while this form's own request is under way. */
  pending: 'this' | 'other' | null;
  error: unknown;
  autoFocus?: boolean;
  /** When another action of the dialog is the main one. */
  secondary?: boolean;
  onSubmit: (note: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const checked = schema.safeParse({ note });
        if (!checked.success) {
          setProblem(checked.error.issues[0]?.message);
          return;
        }
        onSubmit(checked.data.note);
      }}
    >
      <TextAreaField
        label={label}
        rows={4}
        maxLength={REFUND_NOTE_MAX}
        autoFocus={autoFocus}
        value={note}
        error={problem}
        onChange={(event) => {
          setNote(event.target.value);
          setProblem(undefined);
        }}
      />
      {error !== null && error !== undefined && <FormAlert>{t(errorMessageKey(error))}</FormAlert>}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onCancel}>
          {cancel}
        </button>
        <button type="submit" className={secondary ? 'btn-secondary' : 'btn-primary'} disabled={pending !== null}>
          {pending === 'this' ? saving : confirm}
        </button>
      </div>
    </form>
  );
}
