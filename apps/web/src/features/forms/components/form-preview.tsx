import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answersSchema, LANGUAGES, type AnswerValue, type FormSection, type Language } from '@kaminuza/shared';
import { ApplicationFormView } from '../../../components/application-form/application-form-view.tsx';
import { SelectField } from '../../../components/form/field.tsx';
import { institutionThemeProps } from '../../../components/institution-theme.ts';
import { useInstitutionTheme } from '../api/get-theme.ts';

/**
 * The form as an applicant will see it, in the language chosen and the institution's theme, checked as it
 * will be on submission.
 */
export function FormPreview({ partnerId, sections }: { partnerId: string; sections: readonly FormSection[] }) {
  const theme = useInstitutionTheme(partnerId);
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState<Language>(
    LANGUAGES.find((candidate) => candidate === i18n.resolvedLanguage) ?? 'en',
  );
  const [values, setValues] = useState<Record<string, AnswerValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState<'valid' | 'invalid' | null>(null);
  const { className: themeClass, ...themeProps } = institutionThemeProps(theme);

  const check = () => {
    const result = answersSchema(sections).safeParse(values);
    const found: Record<string, string> = {};
    if (!result.success) for (const issue of result.error.issues) found[String(issue.path[0])] ??= issue.message;
    setErrors(found);
    setChecked(result.success ? 'valid' : 'invalid');
  };

  return (
    <div className="flex flex-col gap-5">
      <p className="text-muted">{t('forms.preview.intro')}</p>
      <div className="max-w-xs">
        <SelectField
          label={t('forms.preview.language')}
          placeholder={t('forms.preview.choose_language')}
          value={language}
          options={LANGUAGES.map((id) => ({ value: id, label: t(`forms.languages.${id}`) }))}
          onChange={(event) => {
            const next = LANGUAGES.find((candidate) => candidate === event.target.value);
            if (next) setLanguage(next);
          }}
        />
      </div>
      <form
        noValidate
        aria-label={t('forms.preview.form_label')}
        onSubmit={(event) => {
          event.preventDefault();
          check();
        }}
        // Marked with the institution's colour as applicants will see it; the questions keep the app's look.
        {...themeProps}
        className={`flex flex-col gap-5 ${theme ? `border-t-4 border-institution pt-4 ${themeClass}` : ''}`}
      >
        <ApplicationFormView
          sections={sections}
          language={language}
          values={values}
          errors={errors}
          documents={null}
          onChange={(id, value) => {
            setValues(({ [id]: _previous, ...rest }) => (value === undefined ? rest : { ...rest, [id]: value }));
            if (checked) setChecked(null);
          }}
        />
        <p role="status" className={checked ? 'font-medium' : 'sr-only'}>
          {checked === 'valid' && t('forms.preview.valid')}
          {checked === 'invalid' && t('forms.preview.invalid', { count: Object.keys(errors).length })}
        </p>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary">
            {t('forms.preview.check')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            onClick={() => {
              setValues({});
              setErrors({});
              setChecked(null);
            }}
          >
            {t('forms.preview.clear')}
          </button>
        </div>
      </form>
    </div>
  );
}
