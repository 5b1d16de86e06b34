import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '@kaminuza/shared';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { useApplications } from '../api/get-applications.ts';
import {
  EmptyState,
  Pager,
  SearchBox,
  SectionError,
  StatusBadge,
  StatusFilter,
  TableScroller,
  td,
  th,
  useDebouncedSearch,
  useFormats,
} from './list-parts.tsx';

const PAGE_SIZE = 20;

export function ApplicationsSection() {
  const { t } = useTranslation();
  const format = useFormats();
  const [text, q, setText] = useDebouncedSearch();
  const [status, setStatus] = useState<SubmissionStatus | ''>('');
  const [page, setPage] = useState(1);
  const applications = useApplications({ q: q || undefined, status: status || undefined, page, page_size: PAGE_SIZE });
  const statusLabel = (value: SubmissionStatus) => t(`admin.submission_status.${value}`);

  let body: ReactNode;
  if (applications.isError) {
    body = <SectionError error={applications.error} onRetry={() => void applications.refetch()} />;
  } else if (!applications.data) {
    body = <SkeletonTable rows={6} columns={6} />;
  } else if (applications.data.items.length === 0) {
    body = <EmptyState>{t(q || status ? 'admin.applications.no_match' : 'admin.applications.empty')}</EmptyState>;
  } else {
    body = (
      <>
        <TableScroller label={t('admin.applications.title')} busy={applications.isFetching}>
          <table className="w-full min-w-[48rem] divide-y divide-border">
            <thead className="bg-surface-muted">
              <tr>
                {(['reference', 'applicant', 'university', 'status', 'payment', 'submitted_on'] as const).map((key) => (
                  <th key={key} scope="col" className={th}>
                    {t(`admin.applications.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {applications.data.items.map((application) => (
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
                  <td className={td}>
                    {t(application.paid ? 'admin.applications.paid' : 'admin.applications.unpaid')}
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{format.date(application.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
        <Pager page={page} pageSize={PAGE_SIZE} total={applications.data.total} onPage={setPage} />
      </>
    );
  }

  return (
    <section aria-labelledby="admin-applications-title" className="flex flex-col gap-4">
      <h2 id="admin-applications-title" className="text-xl font-bold">
        {t('admin.applications.title')}
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchBox
          label={t('admin.applications.search_label')}
          value={text}
          onChange={(value) => {
            setText(value);
            setPage(1);
          }}
        />
        <StatusFilter
          statuses={SUBMISSION_STATUSES}
          value={status}
          labelOf={statusLabel}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
        />
      </div>
      {body}
    </section>
  );
}
