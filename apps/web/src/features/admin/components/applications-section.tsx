import { useTranslation } from 'react-i18next';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '@kaminuza/shared';
import { useApplications } from '../api/get-applications.ts';
import { FilteredListSection, StatusBadge, td, useFormats, useListFilters } from './list-parts.tsx';

const COLUMNS = ['reference', 'applicant', 'university', 'status', 'payment', 'submitted_on'] as const;

export function ApplicationsSection() {
  const { t } = useTranslation();
  const format = useFormats();
  const filters = useListFilters<SubmissionStatus>();
  const applications = useApplications(filters.params);
  const statusLabel = (value: SubmissionStatus) => t(`admin.submission_status.${value}`);

  return (
    <FilteredListSection
      id="admin-applications-title"
      title={t('admin.applications.title')}
      searchLabel={t('admin.applications.search_label')}
      statuses={SUBMISSION_STATUSES}
      statusLabel={statusLabel}
      filters={filters}
      query={applications}
      emptyText={t('admin.applications.empty')}
      noMatchText={t('admin.applications.no_match')}
      headings={COLUMNS.map((key) => t(`admin.applications.${key}`))}
      tableClassName="min-w-[48rem]"
      row={(application) => (
        <tr key={application.id}>
          <th scope="row" className={`${td} text-left font-mono font-medium whitespace-nowrap`}>
            {application.reference}
          </th>
          <td className={td}>
            <span className="block font-medium">{application.applicant_name}</span>
            {application.applicant_email && (
              <span className="block text-muted [overflow-wrap:anywhere]">{application.applicant_email}</span>
            )}
          </td>
          <td className={td}>{application.university}</td>
          <td className={td}>
            <StatusBadge status={application.status} label={statusLabel(application.status)} />
          </td>
          <td className={td}>{t(application.paid ? 'admin.applications.paid' : 'admin.applications.unpaid')}</td>
          <td className={`${td} whitespace-nowrap`}>{format.date(application.created_at)}</td>
        </tr>
      )}
    />
  );
}
