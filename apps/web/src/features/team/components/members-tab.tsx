import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffMember, Team } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useMembers } from '../api/get-members.ts';
import { useTeams } from '../api/get-teams.ts';
import { useMakePrimaryContact } from '../api/make-primary-contact.ts';
import { MemberDialog } from './member-dialog.tsx';
import { fullName, PermissionChips, useTeamAccess } from './team-parts.tsx';

/** Every approved member as a card: who they are, what they may do, and, for managers, the edit controls. */
export function MembersTab() {
  const { t } = useTranslation();
  const { partnerId } = useTeamAccess();
  const members = useMembers(partnerId);
  const teams = useTeams(partnerId);
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [promoting, setPromoting] = useState<StaffMember | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (members.isPending) return <Spinner />;
  if (members.isError) return <FormAlert>{t(errorMessageKey(members.error))}</FormAlert>;
  return (
    <section aria-labelledby="members-title" className="flex flex-col gap-4">
      <h2 id="members-title" className="text-xl font-semibold">
        {t('team.members.title', { count: members.data.length })}
      </h2>
      {notice && <FormAlert tone="success">{notice}</FormAlert>}
      <ul className="grid gap-3 md:grid-cols-2">
        {members.data.map((member) => (
          <MemberCard
            key={member.id}
            member={member}
            teams={teams.data ?? []}
            onEdit={() => setEditing(member)}
            onPromote={() => setPromoting(member)}
          />
        ))}
      </ul>
      {editing && (
        <MemberDialog
          member={editing}
          teams={teams.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setNotice(t('team.members.saved', { name: fullName(saved) }));
          }}
        />
      )}
      {promoting && (
        <PrimaryContactDialog
          member={promoting}
          onClose={() => setPromoting(null)}
          onDone={(member) => {
            setPromoting(null);
            setNotice(t('team.members.primary_done', { name: fullName(member) }));
          }}
        />
      )}
    </section>
  );
}

function MemberCard({
  member,
  teams,
  onEdit,
  onPromote,
}: {
  member: StaffMember;
  teams: Team[];
  onEdit: () => void;
  onPromote: () => void;
}) {
  const { t } = useTranslation();
  const { manageTeam, fullAccess } = useTeamAccess();
  const { session } = useSession();
  const isSelf = session.status === 'signed-in' && session.user.id === member.user_id;
  const name = fullName(member);
  const teamNames = teams.filter((team) => member.team_ids.includes(team.id)).map((team) => team.name);
  // A member holding 'all' is edited by full administrators only (the api refuses anyone else).
  const editable = manageTeam && (fullAccess || !member.permissions.includes('all'));

  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold break-words">
            {name}
            {isSelf && <span className="font-normal text-muted"> ({t('team.members.you')})</span>}
          </h3>
          <p className="text-sm break-words text-muted">{member.email}</p>
          <p className="text-sm break-words">{member.role}</p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {member.primary_contact && (
            <span className="rounded-full bg-brand px-2.5 py-0.5 text-xs font-semibold text-on-brand">
              {t('team.members.primary_contact')}
            </span>
          )}
          <span
            className={`rounded-full border px-2.5 py-0.5 text-xs font-semibold ${member.active ? 'border-brand text-brand' : 'border-danger text-danger'}`}
          >
            {member.active ? t('team.members.active') : t('team.members.inactive')}
          </span>
        </div>
      </div>
      <PermissionChips permissions={member.permissions} />
      <p className="text-sm break-words">
        <span className="font-medium">{t('team.members.teams')}: </span>
        {teamNames.length > 0 ? teamNames.join(', ') : <span className="text-muted">{t('team.members.no_teams')}</span>}
      </p>
      {(editable || (fullAccess && !member.primary_contact && member.active)) && (
        <div className="flex flex-wrap gap-2">
          {editable && (
            <button
              type="button"
              className="btn-secondary"
              onClick={onEdit}
              aria-label={t('team.members.edit_label', { name })}
            >
              {t('team.members.edit')}
            </button>
          )}
          {fullAccess && !member.primary_contact && member.active && (
            <button
              type="button"
              className="btn-secondary"
              onClick={onPromote}
              aria-label={t('team.members.make_primary_label', { name })}
            >
              {t('team.members.make_primary')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function PrimaryContactDialog({
  member,
  onClose,
  onDone,
}: {
  member: StaffMember;
  onClose: () => void;
  onDone: (member: StaffMember) => void;
}) {
  const { t } = useTranslation();
  const { partnerId } = useTeamAccess();
  const promote = useMakePrimaryContact(partnerId);
  return (
    <ConfirmDialog
      tone="primary"
      title={t('team.members.primary_title', { name: fullName(member) })}
      description={t('team.members.primary_text')}
      confirmLabel={t('team.members.primary_confirm')}
      cancelLabel={t('team.cancel')}
      pending={promote.isPending}
      error={promote.isError ? t(errorMessageKey(promote.error)) : undefined}
      onConfirm={() => promote.mutate(member.id, { onSuccess: onDone })}
      onClose={onClose}
    />
  );
}
