import { useTranslation } from 'react-i18next';
import { PARTNER_STATUSES } from '@kaminuza/shared';
import { useUniversities } from '../api/get-universities.ts';
import { FilteredListSection, StatusBadge, td, useFormats, useListFilters } from './list-parts.tsx';

type PartnerStatus = (typeof PARTNER_STATUSES)[number];
const COLUMNS = ['name', 'location', 'type', 'status', 'signed_up'] as const;

export function UniversitiesSection() {
  const { t } = useTranslation();
  const format = useFormats();
  const filters = useListFilters<PartnerStatus>();
  const universities = useUniversities(filters.params);
  const statusLabel = (value: PartnerStatus) => t(`admin.partner_status.${value}`);

  return (
    <FilteredListSection
      id="admin-universities-title"
      title={t('admin.universities.title')}
      searchLabel={t('admin.universities.search_label')}
      statuses={PARTNER_STATUSES}
      statusLabel={statusLabel}
      filters={filters}
      query={universities}
      emptyText={t('admin.universities.empty')}
      noMatchText={t('admin.universities.no_match')}
      headings={COLUMNS.map((key) => t(`admin.universities.${key}`))}
      tableClassName="min-w-[40rem]"
      row={(university) => (
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
      )}
    />
  );
}
