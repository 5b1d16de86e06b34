import { useTranslation } from 'react-i18next';

/** Placeholder rows shown while a table's data loads. */
export function SkeletonTable({ rows = 5, columns = 4 }: { rows?: number; columns?: number }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-live="polite"
      aria-busy="true"
      className="overflow-hidden rounded-xl border border-border bg-surface"
    >
      <span className="sr-only">{t('loading.loading')}</span>
      <div aria-hidden="true" className="divide-y divide-border">
        {Array.from({ length: rows + 1 }, (_, r) => (
          <div key={r} className="grid gap-4 p-3" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
            {Array.from({ length: columns }, (_, c) => (
              <div key={c} className={`h-4 animate-pulse rounded ${r === 0 ? 'bg-border' : 'bg-surface-muted'}`} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
