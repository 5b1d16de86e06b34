import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormCreateSchema, type FormCreate, type FormSummary } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, SelectField, TextField } from '../../../components/form/field.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useCreateForm } from '../api/create-form.ts';
import { useDeleteForm } from '../api/delete-form.ts';
import { useDuplicateForm } from '../api/duplicate-form.ts';
import { useForms } from '../api/get-forms.ts';
import { useCycles } from '../api/get-cycles.ts';
import { usePrograms } from '../api/get-programs.ts';
import { useAttachmentChoices, useFormsAccess } from './use-forms-access.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** The institution's application forms: what each is attached to and how big it is, and the actions on it. */
export function FormsPage() {
  const { t, i18n } = useTranslation();
  const { partnerId, canManage } = useFormsAccess();
  const forms = useForms(partnerId);
  const cycles = useCycles(partnerId);
  const programs = usePrograms(partnerId);
  const duplicate = useDuplicateForm(partnerId);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<FormSummary | null>(null);
  const [notice, setNotice] = useState('');

  const cycleName = (id: string | null) => (id ? cycles.data?.find((cycle) => cycle.id === id)?.name : undefined);
  const programName = (id: string | null) =>
    id ? programs.data?.find((program) => program.id === id)?.name : undefined;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('forms.title')}</h1>
        {canManage && (
          <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
            {t('forms.create')}
          </button>
        )}
      </div>
      <p className="text-muted">{t('forms.intro')}</p>
      <p role="status" className={notice ? 'text-sm font-medium' : 'sr-only'}>
        {notice}
      </p>
      {duplicate.isError && <FormAlert>{t(errorMessageKey(duplicate.error))}</FormAlert>}
      {forms.isPending && <SkeletonTable rows={3} columns={3} />}
      {forms.isError && (
        <div className="flex flex-col items-start gap-3">
          <FormAlert>{t(errorMessageKey(forms.error))}</FormAlert>
          <button type="button" className="btn-secondary" onClick={() => void forms.refetch()}>
            {t('forms.retry')}
          </button>
        </div>
      )}
      {forms.data?.length === 0 && (
        <p className="rounded-2xl border border-border bg-surface p-6">{t('forms.empty')}</p>
      )}
      {forms.data && forms.data.length > 0 && (
        <ul aria-label={t('forms.list_label')} className="flex flex-col gap-3">
          {forms.data.map((form) => {
            const attached = [cycleName(form.cycle_id), programName(form.program_id)].filter(Boolean).join(' · ');
            return (
              <li key={form.id} className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:p-5">
                <h2 className="text-lg font-semibold break-words">
                  <Link to={paths.partner.form(form.id)} className="link">
                    {form.name}
                  </Link>
                </h2>
                <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                  <div className="flex gap-2">
                    <dt className="text-muted">{t('forms.attached_to')}</dt>
                    <dd className="min-w-0 break-words">
                      {attached ||
                        (form.cycle_id || form.program_id ? t('forms.attached_unknown') : t('forms.not_attached'))}
                    </dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-muted">{t('forms.contents')}</dt>
                    <dd>
                      {t('forms.section_count', { count: form.section_count })},{' '}
                      {t('forms.question_count', { count: form.question_count })}
                    </dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-muted">{t('forms.version')}</dt>
                    <dd>{form.version}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-muted">{t('forms.updated')}</dt>
                    <dd>
                      <time dateTime={form.updated_at}>
                        {dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
                          new Date(form.updated_at),
                        )}
                      </time>
                    </dd>
                  </div>
                </dl>
                <div className="flex flex-wrap gap-2">
                  <Link
                    to={paths.partner.form(form.id)}
                    className="btn-secondary"
                    aria-label={
                      canManage
                        ? t('forms.edit_label', { name: form.name })
                        : t('forms.open_label', { name: form.name })
                    }
                  >
                    {canManage ? t('forms.edit') : t('forms.open')}
                  </Link>
                  {canManage && (
                    <>
                      <button
                        type="button"
                        className="btn-secondary"
                        disabled={duplicate.isPending}
                        aria-label={t('forms.duplicate_label', { name: form.name })}
                        onClick={() =>
                          duplicate.mutate(
                            { formId: form.id, name: t('forms.copy_name', { name: form.name }) },
                            { onSuccess: (copy) => setNotice(t('forms.duplicated', { name: copy.name })) },
                          )
                        }
                      >
                        {t('forms.duplicate')}
                      </button>
                      <button
                        type="button"
                        className="btn-secondary"
                        aria-label={t('forms.delete_label', { name: form.name })}
                        onClick={() => setDeleting(form)}
                      >
                        {t('forms.delete')}
                      </button>
                    </>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {creating && <CreateFormDialog partnerId={partnerId} onClose={() => setCreating(false)} />}
      {deleting && (
        <DeleteFormDialog
          partnerId={partnerId}
          form={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setNotice(t('forms.deleted', { name: deleting.name }));
            setDeleting(null);
          }}
        />
      )}
    </div>
  );
}

function CreateFormDialog({ partnerId, onClose }: { partnerId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateForm(partnerId);
  const choices = useAttachmentChoices(partnerId);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormCreate>({
    resolver: zodResolver(FormCreateSchema),
    defaultValues: { name: '', description: '', cycle_id: null, program_id: null },
  });
  const nullable = { setValueAs: (value: unknown) => (value === '' || value === null ? null : value) };

  const onSubmit = handleSubmit((input) =>
    create.mutate(input, {
      onSuccess: (form) => void navigate(paths.partner.form(form.id)),
      onError: (error) => {
        for (const [field, message] of Object.entries(fieldErrors(error))) {
          if (field === 'name') setError('name', { message });
        }
      },
    }),
  );

  return (
    <Dialog title={t('forms.create_title')} onClose={onClose}>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          {create.isError && <FormAlert>{t(errorMessageKey(create.error))}</FormAlert>}
          <TextField label={t('forms.name')} error={errors.name?.message} autoFocus {...register('name')} />
          <SelectField
            label={t('forms.cycle')}
            placeholder={t('forms.no_cycle')}
            options={choices.cycles}
            {...register('cycle_id', nullable)}
          />
          <SelectField
            label={t('forms.program')}
            placeholder={t('forms.no_program')}
            options={choices.programs}
            {...register('program_id', nullable)}
          />
          {choices.failed && <p className="text-sm text-muted">{t('forms.links_unavailable')}</p>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('forms.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={create.isPending}>
              {t('forms.create_submit')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function DeleteFormDialog({
  partnerId,
  form,
  onClose,
  onDeleted,
}: {
  partnerId: string;
  form: FormSummary;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteForm(partnerId);
  return (
    <ConfirmDialog
      title={t('forms.delete_title', { name: form.name })}
      description={t('forms.delete_warning')}
      confirmLabel={t('forms.delete_confirm')}
      cancelLabel={t('forms.cancel')}
      pending={remove.isPending}
      error={remove.isError ? t(errorMessageKey(remove.error)) : undefined}
      onConfirm={() => remove.mutate(form.id, { onSuccess: onDeleted })}
      onClose={onClose}
    />
  );
}
