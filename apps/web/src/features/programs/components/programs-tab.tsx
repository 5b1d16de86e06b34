import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROGRAM_LEVELS, STUDY_FIELDS, type Campus, type Program, type StudyField } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SelectField, TextField } from '../../../components/form/field.tsx';
import { useDebounced } from '../../../components/profile-fields/use-debounced.ts';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useCampuses } from '../api/get-campuses.ts';
import { useDeleteProgram } from '../api/delete-program.ts';
import { usePrograms } from '../api/get-programs.ts';
import { ProgramDialog } from './program-dialog.tsx';
import { durationParts } from './program-form.ts';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { numberFormat } from '../../../lib/intl.ts';

type ProgramLevel = (typeof PROGRAM_LEVELS)[number];

/** The institution's programs, searchable and filtered by level and field. */
export function ProgramsTab({
  partnerId,
  canEdit,
  onAddCampus,
}: {
  partnerId: string;
  canEdit: boolean;
  /** Opens the campuses tab: a program needs a campus first. */
  onAddCampus: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [level, setLevel] = useState<ProgramLevel | ''>('');
  const [field, setField] = useState<StudyField | ''>('');
  const q = useDebounced(text.trim());
  const filters = useMemo(
    () => ({ q: q || undefined, level: level || undefined, field: field || undefined }),
    [q, level, field],
  );
  const filtered = Boolean(q || level || field);
  const campuses = useCampuses(partnerId);
  const programs = usePrograms(partnerId, filters);
  const remove = useDeleteProgram(partnerId);
  const [editing, setEditing] = useState<Program | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Program | null>(null);

  const noCampus = campuses.data?.length === 0;
  const addButton = canEdit && !noCampus && campuses.data && (
    <button type="button" className="btn-primary" onClick={() => setEditing('new')}>
      {t('programs.list.add')}
    </button>
  );

  return (
    <section aria-labelledby="programs-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="programs-title" className="text-xl font-semibold">
          {t('programs.list.title')}
        </h2>
        {programs.data && (programs.data.length > 0 || filtered) && addButton}
      </div>

      {noCampus ? (
        <EmptyState
          title={t('programs.list.no_campus_title')}
          text={canEdit ? t('programs.list.no_campus_text') : t('programs.list.no_campus_text_read_only')}
          action={
            canEdit && (
              <button type="button" className="btn-primary" onClick={onAddCampus}>
                {t('programs.list.go_to_campuses')}
              </button>
            )
          }
        />
      ) : (
        <>
          <div role="search" className="grid gap-3 sm:grid-cols-3">
            <TextField
              type="search"
              label={t('programs.list.search')}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
            <SelectField
              label={t('programs.program_form.level')}
              placeholder={t('programs.list.all_levels')}
              options={PROGRAM_LEVELS.map((value) => ({ value, label: t(`partner.program_levels.${value}`) }))}
              value={level}
              onChange={(event) => setLevel(event.target.value as ProgramLevel | '')}
            />
            <SelectField
              label={t('programs.program_form.field')}
              placeholder={t('programs.list.all_fields')}
              options={STUDY_FIELDS.map((value) => ({ value, label: t(`partner.study_fields.${value}`) }))}
              value={field}
              onChange={(event) => setField(event.target.value as StudyField | '')}
            />
          </div>

          {programs.isPending && <SkeletonTable rows={3} columns={3} />}
          {programs.isError && (
            <LoadError
              error={programs.error}
              retryLabel={t('programs.retry')}
              onRetry={() => void programs.refetch()}
            />
          )}
          {programs.data?.length === 0 &&
            (filtered ? (
              <p role="status" className="text-muted">
                {t('programs.list.no_match')}
              </p>
            ) : (
              <EmptyState
                title={t('programs.list.empty_title')}
                text={canEdit ? t('programs.list.empty_text') : t('programs.list.empty_text_read_only')}
                action={addButton}
              />
            ))}
          {programs.data && programs.data.length > 0 && (
            <ul aria-labelledby="programs-title" className="flex flex-col gap-3">
              {programs.data.map((program) => (
                <ProgramCard
                  key={program.id}
                  program={program}
                  campuses={campuses.data ?? []}
                  canEdit={canEdit}
                  onEdit={() => setEditing(program)}
                  onDelete={() => {
                    remove.reset();
                    setDeleting(program);
                  }}
                />
              ))}
            </ul>
          )}
        </>
      )}

      {editing && campuses.data && (
        <ProgramDialog
          partnerId={partnerId}
          program={editing === 'new' ? null : editing}
          campuses={campuses.data}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('programs.list.delete_title', { name: deleting.name })}
          description={t('programs.list.delete_text')}
          confirmLabel={t('programs.delete')}
          cancelLabel={t('programs.cancel')}
          pending={remove.isPending}
          error={remove.isError ? t(errorMessageKey(remove.error)) : undefined}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function ProgramCard({
  program,
  campuses,
  canEdit,
  onEdit,
  onDelete,
}: {
  program: Program;
  campuses: Campus[];
  canEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const money = numberFormat(i18n.resolvedLanguage ?? i18n.language, {
    style: 'currency',
    currency: program.tuition_currency,
    maximumFractionDigits: 0,
  });
  const { years, months } = durationParts(program.duration_months);
  const duration = [
    years > 0 ? t('programs.list.years', { count: years }) : null,
    months > 0 ? t('programs.list.months', { count: months }) : null,
  ]
    .filter(Boolean)
    .join(' ');
  const names = program.campus_ids
    .map((id) => campuses.find((campus) => campus.id === id)?.name)
    .filter(Boolean)
    .join(', ');
  const facts: Array<[string, string]> = [
    [t('programs.program_form.duration'), duration],
    [t('programs.program_form.language'), t(`programs.languages.${program.language}`)],
    [t('programs.program_form.tuition'), money.format(program.tuition_amount)],
    [t('programs.program_form.seats'), program.seats === null ? t('programs.list.not_capped') : String(program.seats)],
    [t('programs.program_form.campuses'), names],
  ];

  return (
    <li className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
      <div>
        <h3 className="text-lg font-semibold [overflow-wrap:anywhere]">{program.name}</h3>
        <p className="text-sm text-muted">
          {t(`partner.program_levels.${program.level}`)} · {t(`partner.study_fields.${program.field}`)}
        </p>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-muted">{label}</dt>
            <dd className="font-medium [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
      </dl>
      {canEdit && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            aria-label={t('programs.edit_named', { name: program.name })}
            onClick={onEdit}
          >
            {t('programs.edit')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            aria-label={t('programs.delete_named', { name: program.name })}
            onClick={onDelete}
          >
            {t('programs.delete')}
          </button>
        </div>
      )}
    </li>
  );
}
