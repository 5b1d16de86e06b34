import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { InvitationInputSchema, LANGUAGES, type Invitation, type InvitationInput } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, SelectField, TextField } from '../../../components/form/field.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { isLanguage } from '../../../lib/languages.ts';
import { useCreateInvitation } from '../api/create-invitation.ts';
import { useTeams } from '../api/get-teams.ts';
import { ChoiceList, NATIVE_NAMES, PermissionFields, useTeamAccess } from './team-parts.tsx';

/** Invites a colleague by email with a job title, permissions, teams and the language of the email. */
export function InviteDialog({ onClose, onSent }: { onClose: () => void; onSent: (invitation: Invitation) => void }) {
  const { t, i18n } = useTranslation();
  const { partnerId, fullAccess } = useTeamAccess();
  const teams = useTeams(partnerId);
  const invite = useCreateInvitation(partnerId);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<InvitationInput>({
    resolver: zodResolver(InvitationInputSchema),
    defaultValues: {
      email: '',
      first_name: '',
      last_name: '',
      role: '',
      permissions: [],
      team_ids: [],
      language: isLanguage(i18n.language) ? i18n.language : 'en',
    },
  });
  const rejected = fieldErrors(invite.error);
  const onSubmit = handleSubmit((values) => invite.mutate(values, { onSuccess: onSent }));

  return (
    <Dialog title={t('team.invite_dialog.title')} description={t('team.invite_dialog.text')} onClose={onClose} wide>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex max-h-[70dvh] flex-col gap-5 overflow-y-auto">
          <TextField
            label={t('team.fields.email')}
            type="email"
            autoComplete="off"
            inputMode="email"
            error={errors.email?.message ?? rejected.email}
            {...register('email')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t('team.fields.first_name')}
              autoComplete="off"
              error={errors.first_name?.message ?? rejected.first_name}
              {...register('first_name')}
            />
            <TextField
              label={t('team.fields.last_name')}
              autoComplete="off"
              error={errors.last_name?.message ?? rejected.last_name}
              {...register('last_name')}
            />
          </div>
          <TextField
            label={t('team.fields.role')}
            hint={t('team.fields.role_hint')}
            error={errors.role?.message ?? rejected.role}
            {...register('role')}
          />
          <Controller
            control={control}
            name="permissions"
            render={({ field }) => (
              <PermissionFields
                value={field.value}
                onChange={field.onChange}
                fullAccess={fullAccess}
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
                options={(teams.data ?? []).map((team) => ({ value: team.id, label: team.name }))}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <SelectField
            label={t('team.fields.language')}
            hint={t('team.fields.language_hint')}
            placeholder={t('team.fields.choose')}
            options={LANGUAGES.map((language) => ({ value: language, label: NATIVE_NAMES[language] }))}
            error={errors.language?.message}
            {...register('language')}
          />
          {invite.isError && <FormAlert>{t(errorMessageKey(invite.error))}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('team.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={invite.isPending}>
              {invite.isPending ? t('team.invite_dialog.sending') : t('team.invite_dialog.send')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
