import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PARTNER_STATUSES } from '@kaminuza/shared';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { useUniversities } from '../api/get-universities.ts';
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

type PartnerStatus = (typeof PARTNER_STATUSES)[number];
const PAGE_SIZE = 20;

export function UniversitiesSection() {
  const { t } = useTranslation();
  const format = useFormats();
  const [text, q, setText] = useDebouncedSearch();
  const [status, setStatus] = useState<PartnerStatus | ''>('');
  const [page, setPage] = useState(1);
  const universities = useUniversities({ q: q || undefined, status: status || undefined, page, page_size: PAGE_SIZE });
  const statusLabel = (value: PartnerStatus) => t(`admin.partner_status.${value}`);

  let body: ReactNode;
  if (universities.isError) {
    body = <SectionError error={universities.error} onRetry={() => void universities.refetch()} />;
  } else if (!universities.data) {
    body = <SkeletonTable rows={6} columns={5} />;
  } else if (universities.data.items.length === 0) {
    body = <EmptyState>{t(q || status ? 'admin.universities.no_match' : 'admin.universities.empty')}</EmptyState>;
  } else {
    body = (
      <>
        <TableScroller label={t('admin.universities.title')} busy={universities.isFetching}>
          <table className="w-full min-w-[40rem] divide-y divide-border">
            <thead className="bg-surface-muted">
              <tr>
                <th scope="col" className={th}>
                  {t('admin.universities.name')}
                </th>
                <th scope="col" className={th}>
                  {t('admin.universities.location')}
                </th>
                <th scope="col" className={th}>
                  {t('admin.universities.type')}
                </th>
                <th scope="col" className={th}>
                  {t('admin.universities.status')}
                </th>
                <th scope="col" className={th}>
                  {t('admin.universities.signed_up')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {universities.data.items.map((university) => (
                <tr key={university.id}>
                  <th scope="row" className={`${td} text-left font-medium`}>
                    {university.name}
                  </th>
                  <td className={td}>
                    {university.city}, {format.country(university.country)}
                  </td>
                  <td className={td}>{t(`admin.institution_types.${university.institution_type}`)}</td>
                  <td className={td}>
                    <StatusBadge status={university.status} label={statusLabel(university.status)} />
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{format.date(university.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroller>
        <Pager page={page} pageSize={PAGE_SIZE} total={universities.data.total} onPage={setPage} />
      </>
    );
  }

  return (
    <section aria-labelledby="admin-universities-title" className="flex flex-col gap-4">
      <h2 id="admin-universities-title" className="text-xl font-bold">
        {t('admin.universities.title')}
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchBox
          label={t('admin.universities.search_label')}
          value={text}
          onChange={(value) => {
            setText(value);
            setPage(1);
          }}
        />
        <StatusFilter
          statuses={PARTNER_STATUSES}
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
