import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LANGUAGES,
  RefereeInviteSchema,
  type Language,
  type Question,
  type Referee,
  type RefereeInvite,
  type RefereeKind,
} from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CheckboxField, FormAlert, SelectField, TextField } from '../../../components/form/field.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { isLanguage, NATIVE_LANGUAGE_NAMES } from '../../../lib/languages.ts';
import {
  refereeLetterUrl,
  useInviteReferee,
  useReferees,
  useRemoveReferee,
  useResendInvitation,
} from '../api/referees.ts';
import { useApplicationFormats } from './formats.ts';

type RefereesQuestion = Extract<Question, { type: 'referees' }>;

/**
 * A referees question answered: the referees invited for it with where each stands, inviting the next
 * one, sending an invitation again, removing one whose letter has not come. The draft's answer follows
 * the referees invited (the api answers the question with its own record when submitting).
 */
export function RefereesQuestionAnswer({
  applicationId,
  question,
  value,
  editable,
  online,
  onChange,
}: {
  applicationId: string;
  question: RefereesQuestion;
  value: unknown;
  /** False once submitted: the referees stay as they are; invitations can still be sent again. */
  editable: boolean;
  online: boolean;
  onChange: (ids: string[] | undefined) => void;
}) {
  const { t } = useTranslation();
  const referees = useReferees(applicationId);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Referee | null>(null);
  const resend = useResendInvitation(applicationId);
  const remove = useRemoveReferee(applicationId);
  const mine = (referees.data ?? []).filter((referee) => referee.question_id === question.id);
  const ids = mine.map((referee) => referee.id);

  // The answer the draft holds follows the referees invited, so progress and the section's checks see them.
  const current = Array.isArray(value) ? (value as string[]).join(',') : '';
  const invited = ids.join(',');
  useEffect(() => {
    if (!referees.data || !editable || invited === current) return;
    onChange(invited ? invited.split(',') : undefined);
  }, [referees.data, editable, invited, current, onChange]);

  if (referees.isPending) return <p className="text-sm text-muted">{t('referee_invites.loading')}</p>;
  if (referees.isError && !referees.data)
    return (
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm text-danger">{t('referee_invites.load_failed')}</p>
        <button type="button" className="btn-secondary" onClick={() => void referees.refetch()}>
          {t('referee_invites.retry')}
        </button>
      </div>
    );

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm" aria-live="polite">
        {t('referee_invites.invited_count', { count: mine.length, total: question.count })}
      </p>
      {mine.length > 0 && (
        <ul className="flex flex-col gap-3">
          {mine.map((referee) => (
            <RefereeCard
              key={referee.id}
              applicationId={applicationId}
              referee={referee}
              editable={editable}
              online={online}
              resending={resend.isPending && resend.variables?.id === referee.id}
              resendError={resend.variables?.id === referee.id && resend.error ? errorMessageKey(resend.error) : null}
              resent={resend.isSuccess && resend.variables?.id === referee.id}
              onResend={() => resend.mutate(referee)}
              onRemove={() => setRemoving(referee)}
            />
          ))}
        </ul>
      )}
      {editable && mine.length < question.count && (
        <button type="button" className="btn-secondary self-start" disabled={!online} onClick={() => setInviting(true)}>
          {t('referee_invites.invite')}
        </button>
      )}
      {!online && editable && <p className="text-sm text-muted">{t('referee_invites.offline')}</p>}
      {inviting && (
        <InviteDialog applicationId={applicationId} question={question} onClose={() => setInviting(false)} />
      )}
      {removing && (
        <ConfirmDialog
          title={t('referee_invites.remove_title', { name: removing.name })}
          description={t('referee_invites.remove_description')}
          confirmLabel={t('referee_invites.remove')}
          cancelLabel={t('referee_invites.cancel')}
          pending={remove.isPending}
          error={remove.error ? t(errorMessageKey(remove.error)) : undefined}
          onConfirm={() => remove.mutate(removing, { onSuccess: () => setRemoving(null) })}
          onClose={() => {
            remove.reset();
            setRemoving(null);
          }}
        />
      )}
    </div>
  );
}

function RefereeCard({
  applicationId,
  referee,
  editable,
  online,
  resending,
  resendError,
  resent,
  onResend,
  onRemove,
}: {
  applicationId: string;
  referee: Referee;
  editable: boolean;
  online: boolean;
  resending: boolean;
  resendError: string | null;
  resent: boolean;
  onResend: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const status = referee.expired ? 'expired' : referee.status;
  const when =
    referee.status === 'submitted'
      ? referee.submitted_at
      : referee.status === 'opened'
        ? referee.opened_at
        : referee.invited_at;
  const waiting = referee.status !== 'submitted';
  return (
    <li className="flex min-w-0 flex-col gap-2 rounded-xl border border-border bg-surface p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words">{referee.name}</p>
          <p className="text-sm text-muted break-words">
            {t(`referees.kinds.${referee.kind}`)} · {referee.title}, {referee.organization}
          </p>
          <p className="text-sm text-muted break-all">{referee.email}</p>
        </div>
        <span
          className={`rounded-full px-2 py-0.5 text-sm font-medium ${
            status === 'submitted'
              ? 'bg-success/15 text-success'
              : status === 'expired'
                ? 'bg-danger/10 text-danger'
                : 'bg-surface-muted'
          }`}
        >
          {t(`referees.status.${status}`)}
        </span>
      </div>
      {when && (
        <p className="text-sm text-muted">{t(`referee_invites.when_${referee.status}`, { date: format.date(when) })}</p>
      )}
      <p className="text-sm text-muted">
        {referee.waived ? t('referee_invites.waived') : t('referee_invites.not_waived')}
      </p>
      {referee.letter && (
        <div className="flex flex-col gap-2">
          {referee.letter.text && (
            <details>
              <summary className="cursor-pointer text-sm font-medium">{t('referee_invites.read_letter')}</summary>
              <p className="mt-2 text-sm break-words whitespace-pre-line">{referee.letter.text}</p>
            </details>
          )}
          {referee.letter.file_name && (
            <a
              className="self-start text-sm font-medium text-brand underline"
              href={refereeLetterUrl(applicationId, referee.id)}
              download={referee.letter.file_name}
            >
              {t('referee_invites.download_letter', { name: referee.letter.file_name })}
            </a>
          )}
        </div>
      )}
      {waiting && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            disabled={!online || resending}
            aria-label={t('referee_invites.resend_label', { name: referee.name })}
            onClick={onResend}
          >
            {t('referee_invites.resend')}
          </button>
          {editable && (
            <button
              type="button"
              className="btn-secondary"
              disabled={!online}
              aria-label={t('referee_invites.remove_label', { name: referee.name })}
              onClick={onRemove}
            >
              {t('referee_invites.remove')}
            </button>
          )}
        </div>
      )}
      {resent && (
        <p className="text-sm text-success" role="status">
          {t('referee_invites.resent', { email: referee.email })}
        </p>
      )}
      {resendError && (
        <p className="text-sm font-medium text-danger" role="alert">
          {t(resendError)}
        </p>
      )}
    </li>
  );
}

const empty = (question: RefereesQuestion, language: Language): RefereeInvite => ({
  question_id: question.id,
  kind: question.kinds[0]!,
  name: '',
  title: '',
  organization: '',
  email: '',
  phone: '',
  waived: false,
  language,
});

function InviteDialog({
  applicationId,
  question,
  onClose,
}: {
  applicationId: string;
  question: RefereesQuestion;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const reader = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const [draft, setDraft] = useState<RefereeInvite>(() => empty(question, reader));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invite = useInviteReferee(applicationId);
  const set = <K extends keyof RefereeInvite>(key: K, value: RefereeInvite[K]) => setDraft({ ...draft, [key]: value });
  const serverErrors = fieldErrors(invite.error);
  const error = (key: string) => errors[key] ?? serverErrors[key];

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = RefereeInviteSchema.safeParse(draft);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    invite.mutate(parsed.data, { onSuccess: onClose });
  };

  return (
    <Dialog
      title={t('referee_invites.invite_title')}
      description={t('referee_invites.invite_description')}
      onClose={onClose}
      wide
    >
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          {invite.error && Object.keys(serverErrors).length === 0 && (
            <FormAlert>{t(errorMessageKey(invite.error))}</FormAlert>
          )}
          {question.kinds.length > 1 && (
            <SelectField
              label={t('referee_invites.kind')}
              placeholder={t('referee_invites.choose_kind')}
              value={draft.kind}
              options={question.kinds.map((kind) => ({ value: kind, label: t(`referees.kinds.${kind}`) }))}
              onChange={(event) => set('kind', event.target.value as RefereeKind)}
            />
          )}
          <TextField
            label={t('referee_invites.name')}
            autoComplete="off"
            value={draft.name}
            maxLength={200}
            error={error('name')}
            onChange={(event) => set('name', event.target.value)}
          />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField
              label={t('referee_invites.title')}
              hint={t('referee_invites.title_hint')}
              value={draft.title}
              maxLength={200}
              error={error('title')}
              onChange={(event) => set('title', event.target.value)}
            />
            <TextField
              label={t('referee_invites.organization')}
              value={draft.organization}
              maxLength={300}
              error={error('organization')}
              onChange={(event) => set('organization', event.target.value)}
            />
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField
              label={t('referee_invites.email')}
              type="email"
              inputMode="email"
              autoComplete="off"
              value={draft.email}
              maxLength={254}
              error={error('email')}
              onChange={(event) => set('email', event.target.value)}
            />
            <TextField
              label={t('referee_invites.phone')}
              optional
              type="tel"
              inputMode="tel"
              hint={t('application_form.phone_hint')}
              value={draft.phone ?? ''}
              error={error('phone')}
              onChange={(event) => set('phone', event.target.value)}
            />
          </div>
          <SelectField
            label={t('referee_invites.language')}
            hint={t('referee_invites.language_hint')}
            placeholder={t('referee_invites.choose_language')}
            value={draft.language}
            options={LANGUAGES.map((language) => ({ value: language, label: NATIVE_LANGUAGE_NAMES[language] }))}
            onChange={(event) => set('language', event.target.value as Language)}
          />
          <CheckboxField
            label={t('referee_invites.waive')}
            checked={draft.waived}
            onChange={(event) => set('waived', event.target.checked)}
          >
            {t('referee_invites.waive_hint')}
          </CheckboxField>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('referee_invites.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={invite.isPending}>
              {t('referee_invites.send_invitation')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
