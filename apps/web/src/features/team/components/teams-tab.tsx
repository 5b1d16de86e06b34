import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { TeamInputSchema, type StaffMember, type Team, type TeamInput } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextAreaField, TextField } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useCreateTeam } from '../api/create-team.ts';
import { useDeleteTeam } from '../api/delete-team.ts';
import { useMembers } from '../api/get-members.ts';
import { useTeams } from '../api/get-teams.ts';
import { useSetTeamMembers } from '../api/set-team-members.ts';
import { useUpdateTeam } from '../api/update-team.ts';
import { ChoiceList, fullName, useTeamAccess } from './team-parts.tsx';

type Editing = { kind: 'create' } | { kind: 'edit' | 'members' | 'delete'; team: Team };

/** Named groups of members (admissions committee, scholarship reviewers…), with who belongs to each. */
export function TeamsTab() {
  const { t } = useTranslation();
  const { partnerId, manageTeam } = useTeamAccess();
  const teams = useTeams(partnerId);
  const members = useMembers(partnerId);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const done = (message: string) => {
    setEditing(null);
    setNotice(message);
  };

  return (
    <section aria-labelledby="teams-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="teams-title" className="text-xl font-semibold">
          {t('team.teams.title')}
        </h2>
        {manageTeam && (
          <button type="button" className="btn-primary" onClick={() => setEditing({ kind: 'create' })}>
            {t('team.teams.create')}
          </button>
        )}
      </div>
      {notice && <FormAlert tone="success">{notice}</FormAlert>}
      {teams.isPending && <Spinner />}
      {teams.isError && <FormAlert>{t(errorMessageKey(teams.error))}</FormAlert>}
      {teams.data?.length === 0 && <p className="text-muted">{t('team.teams.empty')}</p>}
      {teams.data && teams.data.length > 0 && (
        <ul className="grid gap-3 md:grid-cols-2">
          {teams.data.map((team) => {
            const names = (members.data ?? []).filter((member) => team.member_ids.includes(member.id)).map(fullName);
            return (
              <li
                key={team.id}
                className="flex min-w-0 flex-col gap-2 rounded-2xl border border-border bg-surface p-4 sm:p-5"
              >
                <h3 className="font-semibold break-words">{team.name}</h3>
                {team.description && <p className="text-sm break-words text-muted">{team.description}</p>}
                <p className="text-sm break-words">
                  <span className="font-medium">{t('team.teams.members', { count: team.member_ids.length })}</span>
                  {names.length > 0 && `: ${names.join(', ')}`}
                </p>
                {manageTeam && (
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className="btn-secondary"
                      aria-label={t('team.teams.edit_label', { name: team.name })}
                      onClick={() => setEditing({ kind: 'edit', team })}
                    >
                      {t('team.teams.edit')}
                    </button>
                    <button
                      type="button"
                      className="btn-secondary"
                      aria-label={t('team.teams.choose_members_label', { name: team.name })}
                      onClick={() => setEditing({ kind: 'members', team })}
                    >
                      {t('team.teams.choose_members')}
                    </button>
                    <button
                      type="button"
                      className="btn-secondary text-danger"
                      aria-label={t('team.teams.delete_label', { name: team.name })}
                      onClick={() => setEditing({ kind: 'delete', team })}
                    >
                      {t('team.teams.delete')}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {editing?.kind === 'create' && (
        <TeamDialog
          onClose={() => setEditing(null)}
          onSaved={(team) => done(t('team.teams.created', { name: team.name }))}
        />
      )}
      {editing?.kind === 'edit' && (
        <TeamDialog
          team={editing.team}
          onClose={() => setEditing(null)}
          onSaved={(team) => done(t('team.teams.saved', { name: team.name }))}
        />
      )}
      {editing?.kind === 'members' && (
        <TeamMembersDialog
          team={editing.team}
          members={members.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={(team) => done(t('team.teams.saved', { name: team.name }))}
        />
      )}
      {editing?.kind === 'delete' && (
        <DeleteTeamDialog
          team={editing.team}
          onClose={() => setEditing(null)}
          onDeleted={() => done(t('team.teams.deleted', { name: editing.team.name }))}
        />
      )}
    </section>
  );
}

function TeamDialog({ team, onClose, onSaved }: { team?: Team; onClose: () => void; onSaved: (team: Team) => void }) {
  const { t } = useTranslation();
  const { partnerId } = useTeamAccess();
  const create = useCreateTeam(partnerId);
  const update = useUpdateTeam(partnerId);
  const save = team ? update : create;
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TeamInput>({
    resolver: zodResolver(TeamInputSchema),
    defaultValues: { name: team?.name ?? '', description: team?.description ?? '' },
  });
  const onSubmit = handleSubmit((input) =>
    team
      ? update.mutate({ teamId: team.id, input }, { onSuccess: onSaved })
      : create.mutate(input, { onSuccess: onSaved }),
  );
  return (
    <Dialog title={team ? t('team.team_dialog.edit_title') : t('team.team_dialog.create_title')} onClose={onClose}>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <TextField label={t('team.team_dialog.name')} error={errors.name?.message} {...register('name')} />
          <TextAreaField
            label={t('team.team_dialog.description')}
            optional
            rows={3}
            error={errors.description?.message}
            {...register('description')}
          />
          {save.isError && <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('team.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={save.isPending}>
              {save.isPending ? t('team.saving') : t('team.save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function TeamMembersDialog({
  team,
  members,
  onClose,
  onSaved,
}: {
  team: Team;
  members: StaffMember[];
  onClose: () => void;
  onSaved: (team: Team) => void;
}) {
  const { t } = useTranslation();
  const { partnerId } = useTeamAccess();
  const save = useSetTeamMembers(partnerId);
  const { control, handleSubmit } = useForm<{ staff_ids: string[] }>({
    defaultValues: { staff_ids: team.member_ids },
  });
  const onSubmit = handleSubmit(({ staff_ids }) =>
    save.mutate({ teamId: team.id, staffIds: staff_ids }, { onSuccess: onSaved }),
  );
  return (
    <Dialog title={t('team.team_dialog.members_title', { name: team.name })} onClose={onClose}>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex max-h-[70dvh] flex-col gap-4 overflow-y-auto">
          <Controller
            control={control}
            name="staff_ids"
            render={({ field }) => (
              <ChoiceList
                legend={t('team.team_dialog.members')}
                empty={t('team.team_dialog.no_members')}
                options={members.map((member) => ({
                  value: member.id,
                  label: fullName(member),
                  description: member.role,
                }))}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          {save.isError && <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('team.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={save.isPending}>
              {save.isPending ? t('team.saving') : t('team.save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function DeleteTeamDialog({ team, onClose, onDeleted }: { team: Team; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { partnerId } = useTeamAccess();
  const remove = useDeleteTeam(partnerId);
  return (
    <ConfirmDialog
      title={t('team.team_dialog.delete_title', { name: team.name })}
      description={t('team.team_dialog.delete_text')}
      confirmLabel={t('team.team_dialog.delete_confirm')}
      cancelLabel={t('team.cancel')}
      pending={remove.isPending}
      error={remove.isError ? t(errorMessageKey(remove.error)) : undefined}
      onConfirm={() => remove.mutate(team.id, { onSuccess: onDeleted })}
      onClose={onClose}
    />
  );
}
