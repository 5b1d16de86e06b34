import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Invitation } from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useInvitations } from '../api/get-invitations.ts';
import { useResendInvitation } from '../api/resend-invitation.ts';
import { useRevokeInvitation } from '../api/revoke-invitation.ts';
import { InviteDialog } from './invite-dialog.tsx';
import { fullName, PermissionChips, useTeamAccess } from './team-parts.tsx';
import { dateTimeFormat } from '../../../lib/intl.ts';

const STATUS_STYLE: Record<Invitation['status'], string> = {
  pending: 'border-brand text-brand',
  accepted: 'border-border bg-surface-muted text-fg',
  revoked: 'border-danger text-danger',
  expired: 'border-border text-muted',
};

/** Invitations sent by email: who, with what access, where each stands; resend or revoke those not accepted. */
export function InvitationsTab() {
  const { t, i18n } = useTranslation();
  const { partnerId } = useTeamAccess();
  const invitations = useInvitations(partnerId);
  const resend = useResendInvitation(partnerId);
  const revoke = useRevokeInvitation(partnerId);
  const [inviting, setInviting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const date = dateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const failure = resend.error ?? revoke.error;

  return (
    <section aria-labelledby="invitations-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="invitations-title" className="text-xl font-semibold">
          {t('team.invitations.title')}
        </h2>
        <button type="button" className="btn-primary" onClick={() => setInviting(true)}>
          {t('team.invitations.invite')}
        </button>
      </div>
      {notice && <FormAlert tone="success">{notice}</FormAlert>}
      {failure && <FormAlert>{t(errorMessageKey(failure))}</FormAlert>}
      {invitations.isPending && <Spinner />}
      {invitations.isError && <FormAlert>{t(errorMessageKey(invitations.error))}</FormAlert>}
      {invitations.data?.length === 0 && <p className="text-muted">{t('team.invitations.empty')}</p>}
      {invitations.data && invitations.data.length > 0 && (
        <ul className="flex flex-col gap-3">
          {invitations.data.map((invitation) => {
            const name = fullName(invitation);
            const open = invitation.status === 'pending' || invitation.status === 'expired';
            return (
              <li
                key={invitation.id}
                className="flex min-w-0 flex-col gap-2 rounded-2xl border border-border bg-surface p-4 sm:p-5"
              >
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h3 className="font-semibold break-words">{name}</h3>
                    <p className="text-sm break-words text-muted">{invitation.email}</p>
                    <p className="text-sm break-words">{invitation.role}</p>
                  </div>
                  <span
                    className={`rounded-full border px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLE[invitation.status]}`}
                  >
                    {t(`team.invitations.statuses.${invitation.status}`)}
                  </span>
                </div>
                <PermissionChips permissions={invitation.permissions} />
                <p className="text-sm text-muted">
                  {invitation.invited_by_name
                    ? t('team.invitations.sent_by', {
                        name: invitation.invited_by_name,
                        date: date.format(new Date(invitation.created_at)),
                      })
                    : t('team.invitations.sent_on', { date: date.format(new Date(invitation.created_at)) })}
                  {invitation.status === 'pending' &&
                    ` · ${t('team.invitations.expires', { date: date.format(new Date(invitation.expires_at)) })}`}
                </p>
                {open && (
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className="btn-secondary"
                      disabled={resend.isPending}
                      aria-label={t('team.invitations.resend_label', { name })}
                      onClick={() =>
                        resend.mutate(invitation.id, {
                          onSuccess: () => setNotice(t('team.invitations.resent', { email: invitation.email })),
                        })
                      }
                    >
                      {t('team.invitations.resend')}
                    </button>
                    <button
                      type="button"
                      className="btn-secondary text-danger"
                      disabled={revoke.isPending}
                      aria-label={t('team.invitations.revoke_label', { name })}
                      onClick={() =>
                        revoke.mutate(invitation.id, {
                          onSuccess: () => setNotice(t('team.invitations.revoked', { email: invitation.email })),
                        })
                      }
                    >
                      {t('team.invitations.revoke')}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {inviting && (
        <InviteDialog
          onClose={() => setInviting(false)}
          onSent={(invitation) => {
            setInviting(false);
            setNotice(t('team.invitations.sent', { email: invitation.email }));
          }}
        />
      )}
    </section>
  );
}
