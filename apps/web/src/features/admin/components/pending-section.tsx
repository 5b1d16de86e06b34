import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminInstitution, AdminInstitutionsQuery } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { useApproveInstitution } from '../api/approve-institution.ts';
import { useInstitutions } from '../api/get-institutions.ts';
import { RejectDialog } from './reject-dialog.tsx';
import { adminErrorKey, EmptyState, Pager, SectionError, useFormats } from './list-parts.tsx';

export const PENDING_PAGE_SIZE = 10;
export const pendingParams = (page: number): AdminInstitutionsQuery => ({
  status: 'pending',
  page,
  page_size: PENDING_PAGE_SIZE,
});

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="font-medium [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

function InstitutionCard({
  institution,
  busy,
  onApprove,
  onReject,
}: {
  institution: AdminInstitution;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormats();
  const id = useId();
  const none = t('admin.pending.not_given');
  const contact = institution.primary_contact;
  const accreditation = [institution.accreditation_body, institution.accreditation_number].filter(Boolean).join(' · ');
  return (
    <article aria-labelledby={id} className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4">
      <header className="flex flex-col gap-1">
        <h3 id={id} className="text-lg font-semibold [overflow-wrap:anywhere]">
          {institution.name}
        </h3>
        <p className="text-sm text-muted">
          {t('admin.pending.signed_up', { date: format.dateTime(institution.created_at) })}
        </p>
      </header>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Detail label={t('admin.pending.type')}>{t(`admin.institution_types.${institution.institution_type}`)}</Detail>
        <Detail label={t('admin.pending.established')}>{institution.year_established}</Detail>
        <Detail label={t('admin.pending.location')}>
          {institution.city}, {format.country(institution.country)}
        </Detail>
        <Detail label={t('admin.pending.website')}>
          {institution.website ? (
            <a className="link" href={institution.website} target="_blank" rel="noopener noreferrer">
              {institution.website}
            </a>
          ) : (
            none
          )}
        </Detail>
        <Detail label={t('admin.pending.accreditation')}>{accreditation || none}</Detail>
        <Detail label={t('admin.pending.programs')}>{format.number(institution.program_count)}</Detail>
        <Detail label={t('admin.pending.contact')}>{contact?.name ?? none}</Detail>
        <Detail label={t('admin.pending.job_title')}>{contact?.job_title ?? none}</Detail>
        <Detail label={t('admin.pending.email')}>{contact?.email ?? institution.contact_email ?? none}</Detail>
        <Detail label={t('admin.pending.phone')}>{contact?.phone ?? institution.contact_phone ?? none}</Detail>
      </dl>
      {/* Every card has the same two buttons: their names say which institution each one decides. */}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-primary"
          disabled={busy}
          aria-label={busy ? undefined : t('admin.pending.approve_named', { name: institution.name })}
          onClick={onApprove}
        >
          {busy ? t('admin.pending.saving') : t('admin.pending.approve')}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={busy}
          aria-label={t('admin.pending.reject_named', { name: institution.name })}
          onClick={onReject}
        >
          {t('admin.pending.reject')}
        </button>
      </div>
    </article>
  );
}

type Notice = { kind: 'approved' | 'rejected'; name: string } | { kind: 'error'; key: string };

export function PendingSection() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const institutions = useInstitutions(pendingParams(page));
  const approve = useApproveInstitution();
  const [rejecting, setRejecting] = useState<AdminInstitution | null>(null);
  const [approving, setApproving] = useState<AdminInstitution | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Deciding the last institution of a later page leaves that page empty: show the one before.
  if (page > 1 && institutions.data?.items.length === 0 && !institutions.isFetching) setPage(page - 1);

  const onApprove = (institution: AdminInstitution) => {
    setNotice(null);
    approve.mutate(institution.id, {
      onSuccess: () => {
        setApproving(null);
        setNotice({ kind: 'approved', name: institution.name });
      },
    });
  };

  let body: ReactNode;
  if (institutions.isError) {
    body = <SectionError error={institutions.error} onRetry={() => void institutions.refetch()} />;
  } else if (!institutions.data) {
    body = <SkeletonTable rows={3} columns={3} />;
  } else if (institutions.data.items.length === 0) {
    body = <EmptyState>{t('admin.pending.empty')}</EmptyState>;
  } else {
    const { items, total, page_size } = institutions.data;
    body = (
      <>
        <ul className="flex flex-col gap-4" aria-busy={institutions.isFetching}>
          {items.map((institution) => (
            <li key={institution.id}>
              <InstitutionCard
                institution={institution}
                busy={approve.isPending && approve.variables === institution.id}
                onApprove={() => {
                  setNotice(null);
                  approve.reset();
                  setApproving(institution);
                }}
                onReject={() => {
                  setNotice(null);
                  setRejecting(institution);
                }}
              />
            </li>
          ))}
        </ul>
        <Pager page={page} pageSize={page_size} total={total} onPage={setPage} />
      </>
    );
  }

  return (
    <section aria-labelledby="admin-pending-title" className="flex flex-col gap-4">
      <h2 id="admin-pending-title" className="text-xl font-bold">
        {t('admin.pending.title')}
      </h2>
      <div aria-live="polite">
        {notice &&
          (notice.kind === 'error' ? (
            <FormAlert>{t(notice.key)}</FormAlert>
          ) : (
            <FormAlert tone="success">{t(`admin.pending.${notice.kind}_notice`, { name: notice.name })}</FormAlert>
          ))}
      </div>
      {body}
      {approving && (
        <ConfirmDialog
          tone="primary"
          title={t('admin.approve_dialog.title', { name: approving.name })}
          description={t('admin.approve_dialog.text', { name: approving.name })}
          confirmLabel={approve.isPending ? t('admin.pending.saving') : t('admin.approve_dialog.confirm')}
          cancelLabel={t('admin.approve_dialog.cancel')}
          pending={approve.isPending}
          error={approve.isError ? t(adminErrorKey(approve.error)) : undefined}
          onConfirm={() => onApprove(approving)}
          onClose={() => setApproving(null)}
        />
      )}
      {rejecting && (
        <RejectDialog
          institution={rejecting}
          onClose={() => setRejecting(null)}
          onRejected={(rejected) => {
            setRejecting(null);
            setNotice({ kind: 'rejected', name: rejected.name });
          }}
        />
      )}
    </section>
  );
}
