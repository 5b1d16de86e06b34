import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { PARTNER_STATUSES, SUBMISSION_STATUSES, type AdminAnalytics } from '@kaminuza/shared';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { useLowData } from '../../../lib/low-data.ts';
import { useAnalytics } from '../api/get-analytics.ts';
import { SectionError, useFormats } from './list-parts.tsx';

/** Status colours readable on the light and the dark theme alike. */
const COLOURS: Record<string, string> = {
  pending: '#d97706',
  approved: '#16a34a',
  accepted: '#16a34a',
  rejected: '#dc2626',
  suspended: '#6b7280',
  submitted: '#2563eb',
  under_review: '#7c3aed',
  waitlisted: '#d97706',
};
const LINE_COLOUR = '#0d9488';

interface Datum {
  key: string;
  label: string;
  value: number;
}

/**
 * A chart with its text alternative: the drawing is hidden from assistive technology, which reads the
 * same figures from a table instead. In low-data mode the table is what everyone sees, and the drawing
 * (its library and its rendering) waits until asked for.
 */
function ChartFigure({
  title,
  summary,
  columns,
  rows,
  children,
}: {
  title: string;
  summary?: string;
  columns: [string, string];
  rows: Array<[string, string]>;
  children: ReactNode;
}) {
  const id = useId();
  const { t } = useTranslation();
  const lowData = useLowData();
  const [chartAsked, setChartAsked] = useState(false);
  const drawn = !lowData.active || chartAsked;
  return (
    <figure aria-labelledby={id} className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4">
      <figcaption id={id} className="font-semibold">
        {title}
      </figcaption>
      {summary && <p className="text-sm text-muted">{summary}</p>}
      {drawn ? (
        <div aria-hidden="true" className="h-56 w-full text-muted">
          {children}
        </div>
      ) : (
        <button
          type="button"
          className="btn-secondary self-start"
          aria-label={t('low_data.show_chart_of', { title })}
          onClick={() => setChartAsked(true)}
        >
          {t('low_data.show_chart')}
        </button>
      )}
      <table className={drawn ? 'sr-only' : 'w-full text-left text-sm'}>
        <caption className="sr-only">{title}</caption>
        <thead className="text-muted">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">
              {columns[0]}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              {columns[1]}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label} className={drawn ? undefined : 'border-t border-border'}>
              <th scope="row" className="py-1 pr-4 font-normal">
                {label}
              </th>
              <td className="py-1 text-right font-medium tabular-nums">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** Horizontal bars: status names stay readable at 360 px and in every language. */
function StatusBars({ data }: { data: Datum[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={data}
        layout="vertical"
        accessibilityLayer={false}
        margin={{ top: 4, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} strokeOpacity={0.3} />
        <XAxis type="number" allowDecimals={false} tick={{ fill: 'currentColor', fontSize: 12 }} />
        <YAxis type="category" dataKey="label" width={110} tick={{ fill: 'currentColor', fontSize: 12 }} />
        <Tooltip cursor={{ fillOpacity: 0.1 }} />
        <Bar dataKey="value" isAnimationActive={false}>
          {data.map((datum) => (
            <Cell key={datum.key} fill={COLOURS[datum.key] ?? LINE_COLOUR} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-border bg-surface p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-bold">{value}</dd>
    </div>
  );
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}

export function OverviewCharts({ analytics }: { analytics: AdminAnalytics }) {
  const { t } = useTranslation();
  const format = useFormats();
  const institutions: Datum[] = PARTNER_STATUSES.map((status) => ({
    key: status,
    label: t(`admin.partner_status.${status}`),
    value: analytics.institutions_by_status[status],
  }));
  const applications: Datum[] = SUBMISSION_STATUSES.map((status) => ({
    key: status,
    label: t(`admin.submission_status.${status}`),
    value: analytics.applications_by_status[status],
  }));
  const perDay = analytics.submissions_per_day.map((day) => ({ ...day, label: format.day(day.date) }));
  const recentTotal = perDay.reduce((total, day) => total + day.count, 0);
  const busiest = perDay.reduce<(typeof perDay)[number] | null>(
    (best, day) => (best === null || day.count > best.count ? day : best),
    null,
  );
  const statusColumns: [string, string] = [t('admin.overview.status'), t('admin.overview.count')];
  const toRows = (data: Datum[]): Array<[string, string]> => data.map((d) => [d.label, format.number(d.value)]);

  return (
    <div className="flex flex-col gap-6">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label={t('admin.overview.institutions')} value={format.number(sum(analytics.institutions_by_status))} />
        <Stat label={t('admin.overview.awaiting')} value={format.number(analytics.institutions_by_status.pending)} />
        <Stat label={t('admin.overview.students')} value={format.number(analytics.students)} />
        <Stat label={t('admin.overview.applications')} value={format.number(sum(analytics.applications_by_status))} />
      </dl>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartFigure title={t('admin.overview.institutions_chart')} columns={statusColumns} rows={toRows(institutions)}>
          <StatusBars data={institutions} />
        </ChartFigure>
        <ChartFigure title={t('admin.overview.applications_chart')} columns={statusColumns} rows={toRows(applications)}>
          <StatusBars data={applications} />
        </ChartFigure>
      </div>
      <ChartFigure
        title={t('admin.overview.per_day_chart')}
        summary={
          recentTotal > 0 && busiest
            ? t('admin.overview.per_day_summary', { count: recentTotal, busiest: busiest.label })
            : t('admin.overview.per_day_none')
        }
        columns={[t('admin.overview.date'), t('admin.overview.count')]}
        rows={perDay.map((day) => [day.label, format.number(day.count)])}
      >
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={perDay} accessibilityLayer={false} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} strokeOpacity={0.3} />
            <XAxis dataKey="label" tick={{ fill: 'currentColor', fontSize: 12 }} minTickGap={24} />
            <YAxis allowDecimals={false} tick={{ fill: 'currentColor', fontSize: 12 }} />
            <Tooltip />
            <Line
              type="monotone"
              dataKey="count"
              stroke={LINE_COLOUR}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </ChartFigure>
    </div>
  );
}

export function OverviewSection() {
  const { t } = useTranslation();
  const analytics = useAnalytics();
  return (
    <section aria-labelledby="admin-overview-title" className="flex flex-col gap-4">
      <h2 id="admin-overview-title" className="text-xl font-bold">
        {t('admin.overview.title')}
      </h2>
      {analytics.isError ? (
        <SectionError error={analytics.error} onRetry={() => void analytics.refetch()} />
      ) : analytics.data ? (
        <OverviewCharts analytics={analytics.data} />
      ) : (
        <SkeletonTable rows={4} columns={4} />
      )}
    </section>
  );
}
