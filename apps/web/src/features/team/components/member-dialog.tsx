import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { StaffMemberUpdateSchema, type StaffMember, type Team } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextField } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useUpdateMember } from '../api/update-member.ts';
import { ChoiceList, fullName, PermissionFields, useTeamAccess } from './team-parts.tsx';

const MemberFormSchema = StaffMemberUpdateSchema.required();
type MemberForm = z.infer<typeof MemberFormSchema>;

/** Edits a member's job title, permissions, teams and access in one form. */
export function MemberDialog({
  member,
  teams,
  onClose,
  onSaved,
}: {
  member: StaffMember;
  teams: Team[];
  onClose: () => void;
  onSaved: (member: StaffMember) => void;
}) {
  const { t } = useTranslation();
  const { partnerId, fullAccess } = useTeamAccess();
  const { session } = useSession();
  const isSelf = session.status === 'signed-in' && session.user.id === member.user_id;
  const update = useUpdateMember(partnerId);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<MemberForm>({
    resolver: zodResolver(MemberFormSchema),
    defaultValues: {
      role: member.role,
      permissions: member.permissions,
      team_ids: member.team_ids,
      active: member.active,
    },
  });

  const onSubmit = handleSubmit((values) =>
    update.mutate(
      // Only what may change is sent: a member's own permissions and access are not theirs to change.
      { staffId: member.id, update: isSelf ? { role: values.role, team_ids: values.team_ids } : values },
      { onSuccess: onSaved },
    ),
  );

  return (
    <Dialog title={t('team.member_dialog.title', { name: fullName(member) })} onClose={onClose} wide>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex max-h-[70dvh] flex-col gap-5 overflow-y-auto">
          <TextField label={t('team.fields.role')} error={errors.role?.message} {...register('role')} />
          <Controller
            control={control}
            name="permissions"
            render={({ field }) => (
              <PermissionFields
                value={field.value}
                onChange={field.onChange}
                fullAccess={fullAccess}
                disabled={isSelf}
                {...(isSelf ? { hint: t('team.member_dialog.self_hint') } : {})}
                error={errors.permissions?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="team_ids"
            render={({ field }) => (
              <ChoiceList
                legend={t('team.fields.teams')}
                empty={t('team.fields.no_teams')}
                options={teams.map((team) => ({ value: team.id, label: team.name }))}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <Controller
            control={control}
            name="active"
            render={({ field }) => (
              <div className="flex items-start gap-3">
                <input
                  id="member-active"
                  type="checkbox"
                  role="switch"
                  checked={field.value}
                  disabled={isSelf || member.primary_contact}
                  onChange={(event) => field.onChange(event.target.checked)}
                  aria-describedby="member-active-hint"
                  className="mt-0.5 size-6 shrink-0 accent-brand"
                />
                <div>
                  <label htmlFor="member-active" className="font-medium">
                    {t('team.member_dialog.active')}
                  </label>
                  <p id="member-active-hint" className="text-sm text-muted">
                    {member.primary_contact
                      ? t('team.member_dialog.primary_hint')
                      : t('team.member_dialog.active_hint')}
                  </p>
                </div>
              </div>
            )}
          />
          {update.isError && <FormAlert>{t(errorMessageKey(update.error))}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('team.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={update.isPending}>
              {update.isPending ? t('team.saving') : t('team.save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
