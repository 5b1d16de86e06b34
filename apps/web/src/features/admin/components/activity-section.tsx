import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@kaminuza/shared';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { useAuditLog } from '../api/get-audit-log.ts';
import { EmptyState, Pager, SectionError, useFormats } from './list-parts.tsx';

const PAGE_SIZE = 20;
const KNOWN_ACTIONS: Record<string, string> = {
  'institution.approved': 'admin.activity.approved',
  'institution.rejected': 'admin.activity.rejected',
  'announcement.sent': 'notifications.announcement.activity',
  'job.retried': 'admin.activity.job_retried',
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function Entry({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const format = useFormats();
  const actor = entry.actor_email ?? t('admin.activity.former_admin');
  const name = text(entry.details.name) ?? text(entry.details.queue) ?? entry.target_id ?? '';
  const reason = text(entry.details.reason);
  const key = KNOWN_ACTIONS[entry.action];
  return (
    <li className="flex flex-col gap-1 rounded-xl border border-border bg-surface p-4">
      <p className="font-medium [overflow-wrap:anywhere]">
        {key ? t(key, { actor, name }) : t('admin.activity.other', { actor, action: entry.action })}
      </p>
      {reason && <p className="text-sm [overflow-wrap:anywhere]">{t('admin.activity.reason', { reason })}</p>}
      <p className="text-sm text-muted">
        <time dateTime={entry.created_at}>{format.dateTime(entry.created_at)}</time>
      </p>
    </li>
  );
}

export function ActivitySection() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useAuditLog({ page, page_size: PAGE_SIZE });

  let body: ReactNode;
  if (log.isError) body = <SectionError error={log.error} onRetry={() => void log.refetch()} />;
  else if (!log.data) body = <SkeletonTable rows={4} columns={2} />;
  else if (log.data.items.length === 0) body = <EmptyState>{t('admin.activity.empty')}</EmptyState>;
  else {
    body = (
      <>
        <ol className="flex flex-col gap-3" aria-busy={log.isFetching}>
          {log.data.items.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </ol>
        <Pager page={page} pageSize={PAGE_SIZE} total={log.data.total} onPage={setPage} />
      </>
    );
  }

  return (
    <section aria-labelledby="admin-activity-title" className="flex flex-col gap-4">
      <h2 id="admin-activity-title" className="text-xl font-bold">
        {t('admin.activity.title')}
      </h2>
      {body}
    </section>
  );
}
