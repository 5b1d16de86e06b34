import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoteCreateSchema, type ReviewApplication, type ReviewNote } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert, TextAreaField } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useAddNote } from '../api/add-note.ts';
import { useDeleteNote } from '../api/delete-note.ts';
import { useReviewFormats } from './review-parts.tsx';

/** Internal notes on the application: the team's only, never shown to the applicant. */
export function NotesPanel({ partnerId, application }: { partnerId: string; application: ReviewApplication }) {
  const { t } = useTranslation();
  const format = useReviewFormats();
  const add = useAddNote(partnerId, application.id);
  const remove = useDeleteNote(partnerId, application.id);
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<ReviewNote | null>(null);
  const [announced, setAnnounced] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const checked = NoteCreateSchema.safeParse({ body });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message);
      return;
    }
    add.mutate(checked.data, {
      onSuccess: () => {
        setBody('');
        setAnnounced(t('review.notes.added'));
      },
    });
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="rounded-lg border border-amber-600 p-3 text-sm font-medium">{t('review.notes.internal')}</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-3">
        <TextAreaField
          label={t('review.notes.new')}
          rows={4}
          maxLength={5000}
          value={body}
          error={problem}
          onChange={(event) => {
            setBody(event.target.value);
            setProblem(undefined);
          }}
        />
        {add.isError && <FormAlert>{t(errorMessageKey(add.error))}</FormAlert>}
        <button type="submit" className="btn-primary self-start" disabled={add.isPending}>
          {t(add.isPending ? 'review.notes.adding' : 'review.notes.add')}
        </button>
      </form>
      <div aria-live="polite">{announced && <FormAlert tone="success">{announced}</FormAlert>}</div>
      {application.notes.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-4 text-muted">{t('review.notes.empty')}</p>
      ) : (
        <ol aria-label={t('review.notes.list_label')} className="flex flex-col gap-3">
          {application.notes.map((note) => (
            <li key={note.id} className="flex min-w-0 flex-col gap-2 rounded-xl border border-border bg-surface p-4">
              <p className="text-sm text-muted">
                {t('review.notes.by', {
                  name: note.author?.name ?? t('review.notes.former_member'),
                  date: format.dateTime(note.created_at),
                })}
              </p>
              <p className="break-words whitespace-pre-line">{note.body}</p>
              {note.mine && (
                <button
                  type="button"
                  className="btn-secondary self-start text-danger"
                  onClick={() => {
                    remove.reset();
                    setDeleting(note);
                  }}
                >
                  {t('review.notes.delete')}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {deleting && (
        <ConfirmDialog
          title={t('review.notes.delete_title')}
          description={t('review.notes.delete_text')}
          confirmLabel={t('review.notes.delete')}
          cancelLabel={t('review.cancel')}
          pending={remove.isPending}
          error={remove.isError ? t(errorMessageKey(remove.error)) : undefined}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                setDeleting(null);
                setAnnounced(t('review.notes.deleted'));
              },
            })
          }
          onClose={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
