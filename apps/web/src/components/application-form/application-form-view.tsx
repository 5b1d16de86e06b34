import { useId, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  countWords,
  localized,
  messageKey,
  type AnswerValue,
  type DocumentType,
  type FormSection,
  type Language,
  type Question,
} from '@kaminuza/shared';
import { countryOptions } from '../../lib/countries.ts';

/** One of the applicant's documents a file question can be answered with. */
export interface DocumentChoice {
  id: string;
  type: DocumentType;
  name: string;
}

export interface ApplicationFormViewProps {
  sections: readonly FormSection[];
  /** The language the applicant reads the form in: questions and this view's own texts. */
  language: Language;
  values: Readonly<Record<string, unknown>>;
  /** Question id → the refusal of answersSchema (English; shown translated). */
  errors: Readonly<Record<string, string>>;
  onChange: (questionId: string, value: AnswerValue | undefined) => void;
  /**
   * The applicant's documents for file questions; null where there is no applicant (the builder's
   * preview), which shows the document type the question asks for instead.
   */
  documents: readonly DocumentChoice[] | null;
  /**
   * What answers a referees question: the applicant's referees and their invitations. Without it (the
   * builder's preview), the question says what it will ask for.
   */
  renderReferees?: (question: RefereesQuestion, describedBy: string | undefined) => ReactNode;
}

type RefereesQuestion = Extract<Question, { type: 'referees' }>;

type T = ReturnType<typeof useTranslation>['t'];

/**
 * An application form as the applicant sees it: one fieldset per section, each question labelled, with
 * its help, its required mark and its error tied to the control for screen readers.
 */
export function ApplicationFormView({
  sections,
  language,
  values,
  errors,
  onChange,
  documents,
  renderReferees,
}: ApplicationFormViewProps) {
  const { t } = useTranslation(undefined, { lng: language });
  const countries = useMemo(() => countryOptions(language), [language]);
  const text = (value: Parameters<typeof localized>[0]) => localized(value, language);

  return (
    <div lang={language} className="flex flex-col gap-6">
      {sections.map((section) => (
        <fieldset
          key={section.id}
          className="flex min-w-0 flex-col gap-5 rounded-2xl border border-border bg-surface p-4 sm:p-6"
        >
          <legend className="float-left w-full text-xl font-semibold break-words">{text(section.title)}</legend>
          {text(section.description) && <p className="text-muted">{text(section.description)}</p>}
          {section.questions.length === 0 && <p className="text-muted">{t('application_form.empty_section')}</p>}
          {section.questions.map((question) => (
            <QuestionField
              key={question.id}
              question={question}
              label={text(question.label)}
              help={text(question.help)}
              value={values[question.id]}
              error={errors[question.id]}
              onChange={(value) => onChange(question.id, value)}
              t={t}
              language={language}
              countries={countries}
              documents={documents}
              renderReferees={renderReferees}
            />
          ))}
        </fieldset>
      ))}
    </div>
  );
}

interface QuestionFieldProps {
  question: Question;
  label: string;
  help: string;
  value: unknown;
  error: string | undefined;
  onChange: (value: AnswerValue | undefined) => void;
  t: T;
  language: Language;
  countries: ReadonlyArray<{ value: string; label: string }>;
  documents: readonly DocumentChoice[] | null;
  renderReferees: ApplicationFormViewProps['renderReferees'];
}

function QuestionField(props: QuestionFieldProps) {
  const { question, label, help, value, error, onChange, t, language, countries, documents, renderReferees } = props;
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const extraId = `${id}-extra`;
  const wordLimit = question.type === 'long_text' ? question.word_limit : null;
  const extra =
    question.type === 'long_text' && wordLimit !== null
      ? t('application_form.words', { count: countWords(typeof value === 'string' ? value : ''), limit: wordLimit })
      : question.type === 'number' && (question.min !== null || question.max !== null)
        ? rangeText(t, question.min, question.max)
        : question.type === 'phone'
          ? t('application_form.phone_hint')
          : '';
  const describedBy = [help && helpId, extra && extraId, error && errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': question.required || undefined,
    className: 'field-input aria-invalid:border-danger',
  };
  const str = typeof value === 'string' ? value : '';
  const setText = (next: string) => onChange(next === '' ? undefined : next);
  const grouped =
    question.type === 'single_choice' || question.type === 'multiple_choice' || question.type === 'yes_no';

  const title = (
    <>
      <span className="break-words">{label}</span>
      {question.required ? (
        <span className="ms-2 text-sm font-normal text-danger">{t('application_form.required')}</span>
      ) : (
        <span className="ms-2 text-sm font-normal text-muted">{t('application_form.optional')}</span>
      )}
    </>
  );
  const notes: ReactNode = (
    <>
      {help && (
        <p id={helpId} className="text-sm text-muted">
          {help}
        </p>
      )}
      {extra && (
        <p id={extraId} className="text-sm text-muted" aria-live={question.type === 'long_text' ? 'polite' : undefined}>
          {extra}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {translate(t, error)}
        </p>
      )}
    </>
  );

  if (grouped) {
    const choices =
      question.type === 'yes_no'
        ? [
            { id: 'yes', label: t('application_form.yes'), checked: value === true, pick: () => onChange(true) },
            { id: 'no', label: t('application_form.no'), checked: value === false, pick: () => onChange(false) },
          ]
        : question.options.map((option) => {
            const selected = Array.isArray(value) ? (value as string[]) : [];
            return {
              id: option.id,
              label: localized(option.label, language),
              checked: question.type === 'single_choice' ? value === option.id : selected.includes(option.id),
              pick: () => {
                if (question.type === 'single_choice') return onChange(option.id);
                const next = selected.includes(option.id)
                  ? selected.filter((chosen) => chosen !== option.id)
                  : [...selected, option.id];
                onChange(next.length === 0 ? undefined : next);
              },
            };
          });
    return (
      <fieldset
        // Radio buttons form a radiogroup, the role that can say it is required; checkboxes stay a group.
        role={question.type === 'multiple_choice' ? undefined : 'radiogroup'}
        aria-labelledby={`${id}-legend`}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        aria-required={question.type === 'multiple_choice' ? undefined : question.required || undefined}
        className="flex min-w-0 flex-col gap-2"
      >
        <legend id={`${id}-legend`} className="mb-1 font-medium">
          {title}
        </legend>
        {choices.map((choice) => (
          <label key={choice.id} className="flex min-h-11 items-center gap-3">
            <input
              type={question.type === 'multiple_choice' ? 'checkbox' : 'radio'}
              name={id}
              checked={choice.checked}
              onChange={choice.pick}
              className="size-5 shrink-0 accent-brand"
            />
            <span className="break-words">{choice.label}</span>
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }

  if (question.type === 'referees') {
    const kinds = question.kinds.map((kind) => t(`referees.kinds.${kind}`)).join(', ');
    return (
      <fieldset aria-labelledby={`${id}-legend`} aria-describedby={describedBy} className="flex min-w-0 flex-col gap-2">
        <legend id={`${id}-legend`} className="mb-1 font-medium">
          {title}
        </legend>
        <p className="text-sm text-muted">
          {t('application_form.referees_asked', { count: question.count, kinds })}
          {question.submit_before_letters ? '' : ` ${t('application_form.referees_letters_first')}`}
        </p>
        {renderReferees ? renderReferees(question, describedBy) : null}
        {notes}
      </fieldset>
    );
  }

  let control: ReactNode;
  switch (question.type) {
    case 'long_text':
      control = <textarea {...common} rows={6} value={str} onChange={(event) => setText(event.target.value)} />;
      break;
    case 'number':
      control = (
        <input
          {...common}
          type="number"
          inputMode="decimal"
          step="any"
          min={question.min ?? undefined}
          max={question.max ?? undefined}
          value={typeof value === 'number' && Number.isFinite(value) ? value : str}
          onChange={(event) =>
            onChange(
              event.target.value === ''
                ? undefined
                : Number.isNaN(event.target.valueAsNumber)
                  ? event.target.value
                  : event.target.valueAsNumber,
            )
          }
        />
      );
      break;
    case 'date':
      control = <input {...common} type="date" value={str} onChange={(event) => setText(event.target.value)} />;
      break;
    case 'country':
      control = (
        <select {...common} value={str} onChange={(event) => setText(event.target.value)}>
          <option value="">{t('application_form.choose_country')}</option>
          {countries.map((country) => (
            <option key={country.value} value={country.value}>
              {country.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'phone':
      control = (
        <input
          {...common}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          value={str}
          onChange={(event) => setText(event.target.value)}
        />
      );
      break;
    case 'file': {
      const typeName = t(`documents.types.${question.document_type}`);
      control =
        documents === null ? (
          <select {...common} disabled value="">
            <option value="">{t('application_form.document_placeholder', { type: typeName })}</option>
          </select>
        ) : (
          <select {...common} value={str} onChange={(event) => setText(event.target.value)}>
            <option value="">{t('application_form.choose_document', { type: typeName })}</option>
            {documents
              .filter((document) => document.type === question.document_type)
              .map((document) => (
                <option key={document.id} value={document.id}>
                  {document.name}
                </option>
              ))}
          </select>
        );
      break;
    }
    default:
      control = (
        <input {...common} type="text" maxLength={500} value={str} onChange={(event) => setText(event.target.value)} />
      );
  }

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="font-medium">
        {title}
      </label>
      {control}
      {notes}
    </div>
  );
}

function rangeText(t: T, min: number | null, max: number | null): string {
  if (min !== null && max !== null) return t('application_form.between', { min, max });
  if (min !== null) return t('application_form.at_least', { min });
  return t('application_form.at_most', { max });
}

/** An answer's refusal in the form's language when it is one of the known messages. */
function translate(t: T, text: string): string {
  const key = messageKey(text);
  return key ? t(key) : text;
}
