import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_TYPES,
  FORM_LIMITS,
  LANGUAGES,
  profileFieldsFor,
  QUESTION_TYPES,
  REFEREE_KINDS,
  type FormSection,
  type Language,
  type LocalizedText,
  type Question,
  type QuestionType,
} from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import {
  CheckboxField,
  FormAlert,
  SelectField,
  TextAreaField,
  TextField,
  useMessage,
} from '../../../components/form/field.tsx';
import { Tabs } from '../../../components/tabs.tsx';
import { newItemId, questionErrors, questionOfType, withProfileField } from './form-draft.ts';

const setText = (text: LocalizedText, language: Language, value: string): LocalizedText => ({
  ...text,
  [language]: value,
});

/** Texts written per interface language, one tab each, so a phone shows one language at a time. */
function LanguageTabs({ children }: { children: (language: Language, name: string) => ReactNode }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<Language>('en');
  return (
    <Tabs
      label={t('forms.languages.label')}
      items={LANGUAGES.map((id) => ({ id, label: t(`forms.languages.${id}`) }))}
      value={language}
      onChange={setLanguage}
    >
      <div className="flex flex-col gap-4 pt-1">{children(language, t(`forms.languages.${language}`))}</div>
    </Tabs>
  );
}

function DialogActions({ onClose, doneLabel }: { onClose: () => void; doneLabel: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <button type="button" className="btn-secondary" onClick={onClose}>
        {t('forms.cancel')}
      </button>
      <button type="submit" className="btn-primary">
        {doneLabel}
      </button>
    </div>
  );
}

/** A section's title and description in each language. */
export function SectionDialog({
  section,
  isNew,
  onSave,
  onClose,
}: {
  section: FormSection;
  isNew: boolean;
  onSave: (section: FormSection) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const [draft, setDraft] = useState(section);
  const [error, setError] = useState('');
  const titled = Object.values(draft.title).some((text) => text?.trim());
  return (
    <Dialog title={isNew ? t('forms.section.add_title') : t('forms.section.edit_title')} onClose={onClose} wide>
      {() => (
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!titled) return setError(t('forms.section.title_required'));
            onSave(draft);
          }}
        >
          {error && <FormAlert>{message(error)}</FormAlert>}
          <LanguageTabs>
            {(language, name) => (
              <>
                <TextField
                  key={`title-${language}`}
                  label={t('forms.section.title_in', { language: name })}
                  value={draft.title[language] ?? ''}
                  maxLength={FORM_LIMITS.labelLength}
                  onChange={(event) =>
                    setDraft({ ...draft, title: setText(draft.title, language, event.target.value) })
                  }
                />
                <TextAreaField
                  key={`description-${language}`}
                  label={t('forms.section.description_in', { language: name })}
                  optional
                  rows={3}
                  value={draft.description[language] ?? ''}
                  maxLength={FORM_LIMITS.helpLength}
                  onChange={(event) =>
                    setDraft({ ...draft, description: setText(draft.description, language, event.target.value) })
                  }
                />
              </>
            )}
          </LanguageTabs>
          <DialogActions onClose={onClose} doneLabel={isNew ? t('forms.section.add') : t('forms.done')} />
        </form>
      )}
    </Dialog>
  );
}

/** Reads a number field: empty is "no value". */
const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

/** A question: its type, texts per language, whether it must be answered, and its type's settings. */
export function QuestionDialog({
  question,
  isNew,
  onSave,
  onClose,
}: {
  question: Question;
  isNew: boolean;
  onSave: (question: Question) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const [draft, setDraft] = useState<Question>(question);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = (next: Question) => {
    setDraft(next);
    if (Object.keys(errors).length > 0) setErrors(questionErrors(next));
  };
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = questionErrors(draft);
    setErrors(found);
    if (Object.keys(found).length === 0) onSave(draft);
  };

  return (
    <Dialog title={isNew ? t('forms.question.add_title') : t('forms.question.edit_title')} onClose={onClose} wide>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          {Object.keys(errors).length > 0 && <FormAlert>{t('forms.question.fix')}</FormAlert>}
          <SelectField
            label={t('forms.question.type')}
            placeholder={t('forms.question.choose_type')}
            value={draft.type}
            options={QUESTION_TYPES.map((type) => ({ value: type, label: t(`forms.types.${type}`) }))}
            onChange={(event) => {
              if (event.target.value) update(questionOfType(event.target.value as QuestionType, draft));
            }}
          />
          <CheckboxField
            label={t('forms.question.required')}
            checked={draft.required}
            onChange={(event) => update({ ...draft, required: event.target.checked })}
          />
          <TypeSettings question={draft} errors={errors} onChange={update} />
          <ProfileFieldSelect question={draft} error={errors.profile_field} onChange={update} />
          <LanguageTabs>
            {(language, name) => (
              <>
                <TextField
                  key={`label-${language}`}
                  label={t('forms.question.label_in', { language: name })}
                  value={draft.label[language] ?? ''}
                  maxLength={FORM_LIMITS.labelLength}
                  error={language === 'en' ? errors.label : undefined}
                  onChange={(event) => update({ ...draft, label: setText(draft.label, language, event.target.value) })}
                />
                <TextAreaField
                  key={`help-${language}`}
                  label={t('forms.question.help_in', { language: name })}
                  optional
                  rows={2}
                  value={draft.help[language] ?? ''}
                  maxLength={FORM_LIMITS.helpLength}
                  onChange={(event) => update({ ...draft, help: setText(draft.help, language, event.target.value) })}
                />
                {'options' in draft && (
                  <fieldset className="flex min-w-0 flex-col gap-3">
                    <legend className="mb-2 font-medium">{t('forms.question.options_in', { language: name })}</legend>
                    <ol className="flex flex-col gap-3">
                      {draft.options.map((option, index) => (
                        <li key={option.id} className="flex items-end gap-2">
                          <div className="min-w-0 flex-1">
                            <TextField
                              label={t('forms.question.option_in', { number: index + 1, language: name })}
                              value={option.label[language] ?? ''}
                              maxLength={FORM_LIMITS.labelLength}
                              onChange={(event) =>
                                update({
                                  ...draft,
                                  options: draft.options.map((other) =>
                                    other.id === option.id
                                      ? { ...other, label: setText(other.label, language, event.target.value) }
                                      : other,
                                  ),
                                })
                              }
                            />
                          </div>
                          <button
                            type="button"
                            className="btn-secondary"
                            aria-label={t('forms.question.remove_option_label', { number: index + 1 })}
                            onClick={() =>
                              update({ ...draft, options: draft.options.filter((other) => other.id !== option.id) })
                            }
                          >
                            {t('forms.question.remove_option')}
                          </button>
                        </li>
                      ))}
                    </ol>
                    {errors.options && <p className="text-sm font-medium text-danger">{message(errors.options)}</p>}
                    <button
                      type="button"
                      className="btn-secondary self-start"
                      disabled={draft.options.length >= FORM_LIMITS.options}
                      onClick={() =>
                        update({ ...draft, options: [...draft.options, { id: newItemId('o'), label: {} }] })
                      }
                    >
                      {t('forms.question.add_option')}
                    </button>
                  </fieldset>
                )}
                {draft.type === 'referees' && (
                  <RefereePrompts question={draft} language={language} languageName={name} onChange={update} />
                )}
              </>
            )}
          </LanguageTabs>
          <DialogActions onClose={onClose} doneLabel={isNew ? t('forms.question.add') : t('forms.done')} />
        </form>
      )}
    </Dialog>
  );
}

/** The questions each referee answers beside their letter, in one language (at most FORM_LIMITS.refereePrompts). */
function RefereePrompts({
  question,
  language,
  languageName,
  onChange,
}: {
  question: Extract<Question, { type: 'referees' }>;
  language: Language;
  languageName: string;
  onChange: (question: Question) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="mb-1 font-medium">{t('forms.question.referee_prompts_in', { language: languageName })}</legend>
      <p className="text-sm text-muted">{t('forms.question.referee_prompts_hint')}</p>
      <ol className="flex flex-col gap-3">
        {question.prompts.map((prompt, index) => (
          <li key={index} className="flex items-end gap-2">
            <div className="min-w-0 flex-1">
              <TextField
                label={t('forms.question.referee_prompt_in', { number: index + 1, language: languageName })}
                value={prompt[language] ?? ''}
                maxLength={FORM_LIMITS.labelLength}
                onChange={(event) =>
                  onChange({
                    ...question,
                    prompts: question.prompts.map((other, i) =>
                      i === index ? setText(other, language, event.target.value) : other,
                    ),
                  })
                }
              />
            </div>
            <button
              type="button"
              className="btn-secondary"
              aria-label={t('forms.question.remove_referee_prompt_label', { number: index + 1 })}
              onClick={() => onChange({ ...question, prompts: question.prompts.filter((_, i) => i !== index) })}
            >
              {t('forms.question.remove_option')}
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn-secondary self-start"
        disabled={question.prompts.length >= FORM_LIMITS.refereePrompts}
        onClick={() => onChange({ ...question, prompts: [...question.prompts, {}] })}
      >
        {t('forms.question.add_referee_prompt')}
      </button>
    </fieldset>
  );
}

/** Which profile detail prefills the question, among those its type can hold; hidden when none can. */
function ProfileFieldSelect({
  question,
  error,
  onChange,
}: {
  question: Question;
  error: string | undefined;
  onChange: (question: Question) => void;
}) {
  const { t } = useTranslation();
  const fields = profileFieldsFor(question.type);
  if (fields.length === 0) return null;
  return (
    <SelectField
      label={t('forms.question.profile_field')}
      hint={t('forms.question.profile_field_hint')}
      placeholder={t('forms.question.no_prefill')}
      value={question.profile_field ?? ''}
      error={error}
      options={fields.map((field) => ({ value: field, label: t(`forms.profile_fields.${field}`) }))}
      onChange={(event) =>
        onChange(withProfileField(question, fields.find((field) => field === event.target.value) ?? null))
      }
    />
  );
}

/** The settings only some types have: word limit, number range, document type. */
function TypeSettings({
  question,
  errors,
  onChange,
}: {
  question: Question;
  errors: Record<string, string>;
  onChange: (question: Question) => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  switch (question.type) {
    case 'long_text':
      return (
        <TextField
          label={t('forms.question.word_limit')}
          hint={t('forms.question.word_limit_hint')}
          type="number"
          inputMode="numeric"
          min={1}
          max={FORM_LIMITS.wordLimitMax}
          value={question.word_limit ?? ''}
          error={errors.word_limit}
          onChange={(event) => onChange({ ...question, word_limit: numberOrNull(event.target.value) })}
        />
      );
    case 'number':
      return (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label={t('forms.question.min')}
            optional
            type="number"
            inputMode="decimal"
            step="any"
            value={question.min ?? ''}
            error={errors.min}
            onChange={(event) => onChange({ ...question, min: numberOrNull(event.target.value) })}
          />
          <TextField
            label={t('forms.question.max')}
            optional
            type="number"
            inputMode="decimal"
            step="any"
            value={question.max ?? ''}
            error={errors.max}
            onChange={(event) => onChange({ ...question, max: numberOrNull(event.target.value) })}
          />
        </div>
      );
    case 'referees':
      return (
        <div className="flex flex-col gap-4">
          <TextField
            label={t('forms.question.referee_count')}
            type="number"
            inputMode="numeric"
            min={1}
            max={FORM_LIMITS.referees}
            value={question.count}
            error={errors.count}
            onChange={(event) =>
              onChange({
                ...question,
                count: Math.min(FORM_LIMITS.referees, Math.max(1, Math.trunc(Number(event.target.value) || 1))),
              })
            }
          />
          <fieldset className="flex min-w-0 flex-col gap-2">
            <legend className="mb-1 font-medium">{t('forms.question.referee_kinds')}</legend>
            {REFEREE_KINDS.map((kind) => (
              <CheckboxField
                key={kind}
                label={t(`referees.kinds.${kind}`)}
                checked={question.kinds.includes(kind)}
                onChange={(event) =>
                  onChange({
                    ...question,
                    kinds: event.target.checked
                      ? REFEREE_KINDS.filter((other) => other === kind || question.kinds.includes(other))
                      : question.kinds.filter((other) => other !== kind),
                  })
                }
              />
            ))}
            {errors.kinds && <p className="text-sm font-medium text-danger">{message(errors.kinds)}</p>}
          </fieldset>
          <CheckboxField
            label={t('forms.question.submit_before_letters')}
            checked={question.submit_before_letters}
            onChange={(event) => onChange({ ...question, submit_before_letters: event.target.checked })}
          />
        </div>
      );
    case 'file':
      return (
        <SelectField
          label={t('forms.question.document_type')}
          placeholder={t('forms.question.choose_document_type')}
          value={question.document_type}
          options={DOCUMENT_TYPES.map((type) => ({ value: type, label: t(`documents.types.${type}`) }))}
          onChange={(event) => {
            const type = DOCUMENT_TYPES.find((candidate) => candidate === event.target.value);
            if (type) onChange({ ...question, document_type: type });
          }}
        />
      );
    default:
      return null;
  }
}
