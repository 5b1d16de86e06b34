import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { localized, SETUP_MESSAGES, type Form, type FormSection, type Language, type Question } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { FormAlert, SelectField, TextAreaField, TextField, useMessage } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Tabs } from '../../../components/tabs.tsx';
import { ApiError, hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useApplicationForm } from '../api/get-form.ts';
import { useUpdateForm } from '../api/update-form.ts';
import { moved, newSection, questionOfType, withOrder } from './form-draft.ts';
import { FormPreview } from './form-preview.tsx';
import { QuestionDialog, SectionDialog } from './item-dialogs.tsx';
import { SortableList } from './sortable-list.tsx';
import { useAttachmentChoices, useFormsAccess } from './use-forms-access.ts';

/** What the builder edits: everything a save sends but the version. */
interface Draft {
  name: string;
  description: string;
  cycle_id: string | null;
  program_id: string | null;
  sections: FormSection[];
}

const draftOf = (form: Form): Draft => ({
  name: form.name,
  description: form.description,
  cycle_id: form.cycle_id,
  program_id: form.program_id,
  sections: withOrder(form.sections),
});

/** One form's builder, and its preview as applicants will see it. */
export function FormBuilderPage() {
  const { t } = useTranslation();
  const { formId = '' } = useParams();
  const { partnerId, canManage } = useFormsAccess();
  const form = useApplicationForm(partnerId, formId);
  // Bumped by "Reload" after a refused save: the builder starts again from what is stored now.
  const [generation, setGeneration] = useState(0);
  const reload = async () => {
    await form.refetch();
    setGeneration((current) => current + 1);
  };
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <Link to={paths.partner.forms} className="link self-start">
        {t('forms.back')}
      </Link>
      {form.isPending && <Spinner />}
      {form.isError && (
        <>
          <h1 className="text-2xl font-bold tracking-tight">{t('forms.builder_title')}</h1>
          <FormAlert>{t(errorMessageKey(form.error))}</FormAlert>
          {!(form.error instanceof ApiError && form.error.status === 'NOT_FOUND') && (
            <button type="button" className="btn-secondary self-start" onClick={() => void form.refetch()}>
              {t('forms.retry')}
            </button>
          )}
        </>
      )}
      {form.data && (
        <FormBuilder
          key={`${form.data.id}-${generation}`}
          partnerId={partnerId}
          form={form.data}
          canManage={canManage}
          onReload={reload}
        />
      )}
    </div>
  );
}

type Editing =
  | { kind: 'section'; section: FormSection; isNew: boolean }
  | { kind: 'question'; sectionId: string; question: Question; isNew: boolean }
  | null;

function FormBuilder({
  partnerId,
  form,
  canManage,
  onReload,
}: {
  partnerId: string;
  form: Form;
  canManage: boolean;
  onReload: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const language = (i18n.resolvedLanguage ?? 'en') as Language;
  const [loaded, setLoaded] = useState(form);
  const [draft, setDraft] = useState<Draft>(() => draftOf(form));
  const [tab, setTab] = useState<'build' | 'preview'>(canManage ? 'build' : 'preview');
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState('');
  const save = useUpdateForm(partnerId, form.id);
  const choices = useAttachmentChoices(partnerId);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(loaded));
  const stale = hasReason(save.error, 'form_stale');
  const nameError = fieldErrors(save.error).name;

  // Leaving the page with unsaved changes asks first, as the browser words it.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const setSections = (change: (sections: FormSection[]) => FormSection[]) =>
    setDraft((current) => ({ ...current, sections: withOrder(change(current.sections)) }));
  const setQuestions = (sectionId: string, change: (questions: Question[]) => Question[]) =>
    setSections((sections) =>
      sections.map((section) =>
        section.id === sectionId ? { ...section, questions: change(section.questions) } : section,
      ),
    );
  const text = (value: Parameters<typeof localized>[0]) => localized(value, language) || t('forms.untitled');

  const onSave = () =>
    save.mutate(
      { ...draft, version: loaded.version },
      {
        onSuccess: (saved) => {
          setLoaded(saved);
          setDraft(draftOf(saved));
          setNotice(t('forms.saved', { version: saved.version }));
        },
      },
    );

  const header = (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{loaded.name}</h1>
      <p className="text-sm text-muted">
        {t('forms.version_of', { version: loaded.version })}
        {loaded.submission_count > 0 && <> · {t('forms.submission_count', { count: loaded.submission_count })}</>}
      </p>
    </div>
  );

  if (!canManage) {
    return (
      <>
        {header}
        <p className="text-muted">{t('forms.read_only')}</p>
        <FormPreview partnerId={partnerId} sections={draft.sections} />
      </>
    );
  }

  return (
    <>
      {header}
      <div className="sticky top-0 z-20 -mx-4 flex flex-wrap items-center gap-3 border-b border-border bg-bg/95 px-4 py-3 backdrop-blur">
        <p role="status" className="min-w-0 flex-1 text-sm font-medium">
          {dirty ? t('forms.unsaved') : notice || t('forms.all_saved')}
        </p>
        <button type="button" className="btn-primary" disabled={!dirty || save.isPending} onClick={onSave}>
          {save.isPending ? t('forms.saving') : t('forms.save')}
        </button>
      </div>
      {save.isError && (
        <div className="flex flex-col items-start gap-3">
          <FormAlert>
            {stale
              ? message(SETUP_MESSAGES.form_stale)
              : t(errorMessageKey(save.error, { fallback: 'forms.save_failed' }))}
          </FormAlert>
          {stale && <p className="text-sm text-muted">{t('forms.reload_warning')}</p>}
          {stale && (
            <button type="button" className="btn-secondary" onClick={() => void onReload()}>
              {t('forms.reload')}
            </button>
          )}
        </div>
      )}
      <Tabs
        label={t('forms.builder_tabs')}
        items={[
          { id: 'build', label: t('forms.tab_build') },
          { id: 'preview', label: t('forms.tab_preview') },
        ]}
        value={tab}
        onChange={setTab}
      >
        {tab === 'preview' ? (
          <FormPreview partnerId={partnerId} sections={draft.sections} />
        ) : (
          <div className="flex flex-col gap-6">
            <fieldset className="flex min-w-0 flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-6">
              <legend className="float-left mb-2 w-full text-xl font-semibold">{t('forms.details')}</legend>
              <TextField
                label={t('forms.name')}
                value={draft.name}
                error={nameError ?? (draft.name.trim() === '' ? SETUP_MESSAGES.name_required : undefined)}
                onChange={(event) => setDraft({ ...draft, name: event.target.value })}
              />
              <TextAreaField
                label={t('forms.description')}
                hint={t('forms.description_hint')}
                optional
                rows={2}
                value={draft.description}
                onChange={(event) => setDraft({ ...draft, description: event.target.value })}
              />
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <SelectField
                  label={t('forms.cycle')}
                  placeholder={t('forms.no_cycle')}
                  options={withCurrent(choices.cycles, draft.cycle_id, t('forms.attached_unknown'))}
                  value={draft.cycle_id ?? ''}
                  onChange={(event) => setDraft({ ...draft, cycle_id: event.target.value || null })}
                />
                <SelectField
                  label={t('forms.program')}
                  placeholder={t('forms.no_program')}
                  options={withCurrent(choices.programs, draft.program_id, t('forms.attached_unknown'))}
                  value={draft.program_id ?? ''}
                  onChange={(event) => setDraft({ ...draft, program_id: event.target.value || null })}
                />
              </div>
              {choices.failed && <p className="text-sm text-muted">{t('forms.links_unavailable')}</p>}
            </fieldset>

            <section aria-labelledby="sections-title" className="flex flex-col gap-4">
              <h2 id="sections-title" className="text-xl font-semibold">
                {t('forms.sections_title')}
              </h2>
              <SortableList
                items={draft.sections}
                label={t('forms.sections_title')}
                nameOf={(section) => text(section.title)}
                onMove={(from, to) => setSections((sections) => moved(sections, from, to))}
              >
                {(section, index, controls) => (
                  <div className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-5">
                    <div className="flex flex-col gap-3">
                      <h3 className="text-lg font-semibold break-words">
                        <span className="text-muted">{t('forms.section_number', { number: index + 1 })}</span>{' '}
                        {text(section.title)}
                      </h3>
                      {localized(section.description, language) && (
                        <p className="text-sm text-muted">{localized(section.description, language)}</p>
                      )}
                      <div className="flex flex-wrap gap-2">
                        {controls}
                        <button
                          type="button"
                          className="btn-secondary"
                          aria-label={t('forms.section.edit_label', { name: text(section.title) })}
                          onClick={() => setEditing({ kind: 'section', section, isNew: false })}
                        >
                          {t('forms.edit')}
                        </button>
                        <button
                          type="button"
                          className="btn-secondary"
                          disabled={draft.sections.length === 1}
                          aria-label={t('forms.section.delete_label', { name: text(section.title) })}
                          onClick={() => {
                            setSections((sections) => sections.filter((other) => other.id !== section.id));
                            setNotice(t('forms.section.deleted', { name: text(section.title) }));
                          }}
                        >
                          {t('forms.delete')}
                        </button>
                      </div>
                    </div>
                    {section.questions.length === 0 ? (
                      <p className="text-sm text-muted">{t('forms.question.none')}</p>
                    ) : (
                      <SortableList
                        items={section.questions}
                        label={t('forms.question.list_label', { name: text(section.title) })}
                        nameOf={(question) => text(question.label)}
                        onMove={(from, to) => setQuestions(section.id, (questions) => moved(questions, from, to))}
                      >
                        {(question, _, questionControls) => (
                          <div className="flex flex-col gap-3 rounded-xl border border-border p-3">
                            <div className="flex min-w-0 flex-col">
                              <p className="font-medium break-words">{text(question.label)}</p>
                              <p className="text-sm text-muted">
                                {t(`forms.types.${question.type}`)}
                                {question.required ? ` · ${t('forms.question.required_short')}` : ''}
                              </p>
                            </div>
                            <div className="flex flex-wrap gap-2">
                              {questionControls}
                              <button
                                type="button"
                                className="btn-secondary"
                                aria-label={t('forms.question.edit_label', { name: text(question.label) })}
                                onClick={() =>
                                  setEditing({ kind: 'question', sectionId: section.id, question, isNew: false })
                                }
                              >
                                {t('forms.edit')}
                              </button>
                              <button
                                type="button"
                                className="btn-secondary"
                                aria-label={t('forms.question.delete_label', { name: text(question.label) })}
                                onClick={() => {
                                  setQuestions(section.id, (questions) =>
                                    questions.filter((other) => other.id !== question.id),
                                  );
                                  setNotice(t('forms.question.deleted', { name: text(question.label) }));
                                }}
                              >
                                {t('forms.delete')}
                              </button>
                            </div>
                          </div>
                        )}
                      </SortableList>
                    )}
                    <button
                      type="button"
                      className="btn-secondary self-start"
                      aria-label={t('forms.question.add_label', { name: text(section.title) })}
                      onClick={() =>
                        setEditing({
                          kind: 'question',
                          sectionId: section.id,
                          question: questionOfType('short_text'),
                          isNew: true,
                        })
                      }
                    >
                      {t('forms.question.add')}
                    </button>
                  </div>
                )}
              </SortableList>
              <button
                type="button"
                className="btn-secondary self-start"
                onClick={() => setEditing({ kind: 'section', section: newSection({}), isNew: true })}
              >
                {t('forms.section.add')}
              </button>
            </section>
          </div>
        )}
      </Tabs>
      {editing?.kind === 'section' && (
        <SectionDialog
          section={editing.section}
          isNew={editing.isNew}
          onClose={() => setEditing(null)}
          onSave={(section) => {
            setSections((sections) =>
              editing.isNew
                ? [...sections, section]
                : sections.map((other) => (other.id === section.id ? section : other)),
            );
            setEditing(null);
          }}
        />
      )}
      {editing?.kind === 'question' && (
        <QuestionDialog
          question={editing.question}
          isNew={editing.isNew}
          onClose={() => setEditing(null)}
          onSave={(question) => {
            setQuestions(editing.sectionId, (questions) =>
              editing.isNew
                ? [...questions, question]
                : questions.map((other) => (other.id === question.id ? question : other)),
            );
            setEditing(null);
          }}
        />
      )}
    </>
  );
}

/** The choices plus the one attached, when it is not among them (not loaded, or gone). */
function withCurrent(options: Array<{ value: string; label: string }>, current: string | null, unknown: string) {
  return current && !options.some((option) => option.value === current)
    ? [...options, { value: current, label: unknown }]
    : options;
}
