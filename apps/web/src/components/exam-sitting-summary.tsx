import { useTranslation } from 'react-i18next';
import {
  aggregateOf,
  classOf,
  examSystem,
  subjectName,
  type ExamSitting,
  type ExamSystem,
} from '@kaminuza/shared/exams';
import { numberFormat } from '../lib/intl.ts';

/** An examination's name as lists show it: `WASSCE — West African Senior School Certificate Examination`. */
export const examLabel = (system: ExamSystem) => `${system.short_name} — ${system.name}`;

/** What a sitting is shown with, on the applicant's profile and in the staff review. */
type ShownSitting = Pick<
  ExamSitting,
  'exam' | 'other_name' | 'year' | 'index_number' | 'results' | 'declared' | 'overall' | 'document_type'
>;

export const sittingTitle = (sitting: Pick<ExamSitting, 'exam' | 'other_name'>) => {
  const system = examSystem(sitting.exam);
  return system ? examLabel(system) : sitting.other_name;
};

/**
 * A sitting's year and index number, its subjects with their grades (an unknown examination: its overall
 * grade as written), the aggregate the examination's rules compute, and the document it is read against.
 */
export function ExamSittingSummary({ sitting, Heading = 'h3' }: { sitting: ShownSitting; Heading?: 'h3' | 'h4' }) {
  const { t, i18n } = useTranslation();
  const system = examSystem(sitting.exam);
  const aggregate = system ? aggregateOf(system, sitting.results, sitting.declared) : null;
  const aggregateClass = system ? classOf(system, aggregate) : null;
  const number = numberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (
    <>
      <Heading className="font-semibold break-words">{sittingTitle(sitting)}</Heading>
      <p className="text-sm text-muted">
        {[
          numberFormat(i18n.language, { useGrouping: false }).format(sitting.year),
          sitting.index_number && t('profile.exams.index_shown', { number: sitting.index_number }),
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {system ? (
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
          {sitting.results.map((result) => (
            <div key={result.subject} className="contents">
              <dt className="break-words">{subjectName(system, result.subject)}</dt>
              <dd className="text-right font-medium">{result.grade}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm">{t('profile.exams.overall_shown', { grade: sitting.overall })}</p>
      )}
      {system && (
        <p className="text-sm">
          {aggregate === null
            ? t('profile.exams.aggregate_unknown', { label: system.aggregate.label })
            : aggregateClass
              ? t('profile.exams.aggregate_class', {
                  label: system.aggregate.label,
                  value: number.format(aggregate),
                  class: aggregateClass,
                })
              : t('profile.exams.aggregate', { label: system.aggregate.label, value: number.format(aggregate) })}
        </p>
      )}
      <p className="text-sm text-muted">
        {sitting.document_type
          ? t('profile.exams.document_shown', { document: t(`documents.types.${sitting.document_type}`) })
          : t('profile.exams.no_document')}
      </p>
    </>
  );
}
