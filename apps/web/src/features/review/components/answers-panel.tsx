import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { localized, SubmittedSittingSchema, type ReviewApplication } from '@kaminuza/shared';
import { ExamSittingSummary } from '../../../components/exam-sitting-summary.tsx';
import { countryNamer } from '../../../lib/countries.ts';
import { isLanguage } from '../../../lib/languages.ts';
import { shownAnswer } from '../../../components/application-form/shown-answer.ts';
import { useReviewFormats } from './review-parts.tsx';

const SubmittedSittingsSchema = z.array(SubmittedSittingSchema);

type ValueKind = 'text' | 'day' | 'country' | 'gender' | 'education';

/** The profile fields a submission's snapshot carries, in reading order, with their labels. */
const PROFILE_FIELDS: ReadonlyArray<{ key: string; label: string; kind: ValueKind }> = [
  { key: 'first_name', label: 'onboarding.fields.first_name', kind: 'text' },
  { key: 'last_name', label: 'onboarding.fields.last_name', kind: 'text' },
  { key: 'preferred_name', label: 'onboarding.fields.preferred_name', kind: 'text' },
  { key: 'email', label: 'profile.email', kind: 'text' },
  { key: 'phone', label: 'onboarding.fields.phone', kind: 'text' },
  { key: 'date_of_birth', label: 'onboarding.fields.date_of_birth', kind: 'day' },
  { key: 'gender', label: 'onboarding.fields.gender', kind: 'gender' },
  { key: 'nationality', label: 'onboarding.fields.nationality', kind: 'country' },
  { key: 'country_of_residence', label: 'onboarding.fields.country_of_residence', kind: 'country' },
  { key: 'address', label: 'onboarding.fields.address', kind: 'text' },
  { key: 'city', label: 'onboarding.fields.city', kind: 'text' },
  { key: 'country', label: 'profile.country', kind: 'country' },
  { key: 'postal_code', label: 'onboarding.fields.postal_code', kind: 'text' },
  { key: 'education_level', label: 'onboarding.fields.education_level', kind: 'education' },
  { key: 'last_school', label: 'onboarding.fields.school', kind: 'text' },
  { key: 'graduation_year', label: 'profile.graduation_year', kind: 'text' },
  { key: 'gpa', label: 'profile.gpa', kind: 'text' },
  { key: 'major', label: 'profile.major', kind: 'text' },
  { key: 'degree_type', label: 'profile.degree_type', kind: 'text' },
];

/**
 * The application exactly as submitted: the applicant's profile at that moment, and every answer read
 * against the form as it was then (a later edit of the form changes nothing here).
 */
export function AnswersPanel({ application }: { application: ReviewApplication }) {
  const { t, i18n } = useTranslation();
  const format = useReviewFormats();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const country = countryNamer(language);
  const profile = application.profile;
  const shown = (kind: ValueKind, value: string) => {
    if (kind === 'day' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return format.day(value);
    if (kind === 'country') return country(value);
    if (kind === 'gender') return t(`onboarding.genders.${value}`, { defaultValue: value });
    if (kind === 'education') return t(`onboarding.education_levels.${value}`, { defaultValue: value });
    return value;
  };
  const fields = PROFILE_FIELDS.flatMap(({ key, label, kind }) => {
    const value = profile[key];
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '') return [];
    return [{ key, label: t(label), value: shown(kind, String(value)) }];
  });
  const exams = SubmittedSittingsSchema.catch([]).parse(profile.exam_sittings);
  const documents = application.documents.map((document) => ({
    id: document.document_id,
    type: document.type,
    name: document.file_name,
  }));
  const yesNo = (value: boolean) => t(value ? 'application_form.yes' : 'application_form.no');

  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby="review-profile"
        className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4"
      >
        <h2 id="review-profile" className="text-lg font-semibold">
          {t('review.application.profile_title')}
        </h2>
        {application.blind && <p className="text-sm text-muted">{t('review.application.blind_profile')}</p>}
        {fields.length === 0 ? (
          <p className="text-muted">{t('review.application.profile_empty')}</p>
        ) : (
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
            {fields.map((field) => (
              <div key={field.key} className="min-w-0">
                <dt className="text-sm text-muted">{field.label}</dt>
                <dd className="break-words">{field.value}</dd>
              </div>
            ))}
          </dl>
        )}
        {exams.length > 0 && (
          <div className="flex flex-col gap-2">
            <h3 className="font-medium">{t('profile.exams.title')}</h3>
            <ul className="flex flex-col gap-3">
              {exams.map((exam) => (
                <li key={exam.id} className="flex flex-col gap-1 rounded-lg border border-border p-3">
                  <ExamSittingSummary sitting={exam} Heading="h4" />
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>

      {!application.form ? (
        <p className="text-muted">{t('review.application.no_form')}</p>
      ) : (
        application.form.sections.map((section) => (
          <section
            key={section.id}
            className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4"
          >
            <h2 className="text-lg font-semibold break-words">{localized(section.title, language)}</h2>
            {section.questions.length === 0 ? (
              <p className="text-muted">{t('application_form.empty_section')}</p>
            ) : (
              <dl className="flex flex-col gap-3">
                {section.questions.map((question) => {
                  const value = application.answers[question.id];
                  return (
                    <div key={question.id} className="min-w-0">
                      <dt className="text-sm text-muted break-words">{localized(question.label, language)}</dt>
                      <dd className="break-words whitespace-pre-line">
                        {value === undefined || value === null || value === '' ? (
                          <span className="text-muted italic">{t('review.application.not_answered')}</span>
                        ) : (
                          shownAnswer(question, value, language, documents, yesNo, (ids) =>
                            t('review.application.referees_invited', { count: ids.length }),
                          )
                        )}
                      </dd>
                    </div>
                  );
                })}
              </dl>
            )}
          </section>
        ))
      )}
    </div>
  );
}
