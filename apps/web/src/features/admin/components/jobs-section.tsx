import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FailedJob, JobQueueCounts } from '@kaminuza/shared';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useJobs, useRetryJob } from '../api/jobs.ts';
import { EmptyState, Pager, SectionError, TableScroller, adminErrorKey, td, th, useFormats } from './list-parts.tsx';

const PAGE_SIZE = 20;

/** A queue's name as people read it; the key drops the dots i18next would read as nesting. */
function useQueueName() {
  const { t } = useTranslation();
  return (queue: string) => t(`admin.jobs.queues.${queue.replaceAll('.', '_')}`, { defaultValue: queue });
}

function Queues({ queues }: { queues: JobQueueCounts[] }) {
  const { t } = useTranslation();
  const format = useFormats();
  const queueName = useQueueName();
  return (
    <TableScroller label={t('admin.jobs.queues_title')} busy={false}>
      <table className="w-full min-w-[18rem] border-collapse">
        <caption className="sr-only">{t('admin.jobs.queues_title')}</caption>
        <thead>
          <tr className="border-b border-border">
            <th scope="col" className={th}>
              {t('admin.jobs.queue')}
            </th>
            <th scope="col" className={`${th} text-right`}>
              {t('admin.jobs.queued')}
            </th>
            <th scope="col" className={`${th} text-right`}>
              {t('admin.jobs.active')}
            </th>
            <th scope="col" className={`${th} text-right`}>
              {t('admin.jobs.failed')}
            </th>
          </tr>
        </thead>
        <tbody>
          {queues.map((queue) => (
            <tr key={queue.queue} className="border-b border-border last:border-b-0">
              <th scope="row" className={`${td} text-left font-medium`}>
                {queueName(queue.queue)}
              </th>
              <td className={`${td} text-right tabular-nums`}>{format.number(queue.queued)}</td>
              <td className={`${td} text-right tabular-nums`}>{format.number(queue.active)}</td>
              <td className={`${td} text-right tabular-nums ${queue.failed > 0 ? 'font-semibold text-danger' : ''}`}>
                {format.number(queue.failed)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

function FailedJobItem({ job }: { job: FailedJob }) {
  const { t } = useTranslation();
  const format = useFormats();
  const queueName = useQueueName();
  const retry = useRetryJob();
  const when = format.dateTime(job.failed_at);
  // No longer failed: retried meanwhile by another admin, or run again since.
  const gone = retry.error instanceof ApiError && retry.error.status === 'NOT_FOUND';
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-medium">{queueName(job.queue)}</p>
          {job.subject && (
            <p className="text-sm text-muted [overflow-wrap:anywhere]">
              {t('admin.jobs.subject', { subject: job.subject })}
            </p>
          )}
        </div>
        <button
          type="button"
          className="btn-secondary"
          disabled={retry.isPending || retry.isSuccess}
          aria-label={t('admin.jobs.retry_label', { queue: queueName(job.queue), when })}
          onClick={() => retry.mutate({ queue: job.queue, id: job.id })}
        >
          {t('admin.jobs.retry')}
        </button>
      </div>
      <p className="text-sm [overflow-wrap:anywhere]">
        {job.error ? t('admin.jobs.error', { error: job.error }) : t('admin.jobs.no_error')}
      </p>
      <p className="text-sm text-muted">
        {t('admin.jobs.attempts', { count: job.attempts })} ·{' '}
        <time dateTime={job.failed_at}>{t('admin.jobs.failed_at', { when })}</time>
      </p>
      <div aria-live="polite">
        {retry.isSuccess && <p className="text-sm font-medium text-success">{t('admin.jobs.retried')}</p>}
        {retry.isError && (
          <p role="alert" className="text-sm text-danger">
            {gone ? t('admin.jobs.gone') : t(adminErrorKey(retry.error))}
          </p>
        )}
      </div>
    </li>
  );
}

/**
 * The background jobs (ADR 033): each queue's waiting, running and failed jobs, and the failed ones with
 * their last error, which an admin can put back in their queue once the cause is fixed.
 */
export function JobsSection() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const jobs = useJobs({ page, page_size: PAGE_SIZE });

  let body: ReactNode;
  if (jobs.isError && !jobs.data) body = <SectionError error={jobs.error} onRetry={() => void jobs.refetch()} />;
  else if (!jobs.data) body = <SkeletonTable rows={4} columns={4} />;
  else {
    const { queues, failed } = jobs.data;
    body = (
      <>
        <Queues queues={queues} />
        <h3 className="text-lg font-semibold">{t('admin.jobs.failed_title')}</h3>
        {failed.items.length === 0 ? (
          <EmptyState>{t('admin.jobs.empty')}</EmptyState>
        ) : (
          <>
            <ol className="flex flex-col gap-3" aria-busy={jobs.isFetching}>
              {failed.items.map((job) => (
                <FailedJobItem key={job.id} job={job} />
              ))}
            </ol>
            <Pager page={page} pageSize={PAGE_SIZE} total={failed.total} onPage={setPage} />
          </>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="admin-jobs-title" className="flex flex-col gap-4">
      <h2 id="admin-jobs-title" className="text-xl font-bold">
        {t('admin.jobs.title')}
      </h2>
      <p className="max-w-prose text-muted">{t('admin.jobs.intro')}</p>
      {body}
    </section>
  );
}
