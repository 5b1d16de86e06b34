import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { holdsPermission, STAFF_PERMISSIONS, type StaffPermission } from '@kaminuza/shared';
import { useMessage } from '../../../components/form/field.tsx';
import { useSession } from '../../../lib/session.tsx';

/** The signed-in member's institution and what the Team page lets them do (the api decides again). */
export function useTeamAccess() {
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const held = user?.staff_permissions ?? [];
  return {
    partnerId: user?.partner_id ?? '',
    manageTeam: holdsPermission(held, 'manage_team'),
    fullAccess: holdsPermission(held, 'all'),
  };
}

export const fullName = (person: { first_name: string; last_name: string }) =>
  `${person.first_name} ${person.last_name}`.trim();

/** Languages by their own names: a person picks the one they read. */
export const NATIVE_NAMES = { en: 'English', fr: 'Français', rw: 'Kinyarwanda' } as const;

/** A titled group of checkboxes (a fieldset), with its error announced below. */
export function CheckboxGroup({
  legend,
  hint,
  error,
  children,
}: {
  legend: string;
  hint?: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  const message = useMessage();
  const id = useId();
  return (
    <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={hint ? `${id}-hint` : undefined}>
      <legend className="mb-1 font-medium">{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {children}
      {error && <p className="text-sm font-medium text-danger">{message(error)}</p>}
    </fieldset>
  );
}

/** One checkbox of a group, its label and an optional description under it. */
export function CheckboxOption({
  label,
  description,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={description ? `${id}-description` : undefined}
        className="mt-0.5 size-6 shrink-0 accent-brand"
      />
      <div className="min-w-0">
        <label htmlFor={id} className="font-medium break-words">
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className="text-sm text-muted">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}

/** A list of ids chosen by checkboxes (teams, members): checking adds the id, unchecking removes it. */
export function ChoiceList<T extends string>({
  legend,
  hint,
  empty,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  hint?: string;
  /** Shown instead of the checkboxes when there is nothing to choose. */
  empty: string;
  options: ReadonlyArray<{ value: T; label: string; description?: string; disabled?: boolean }>;
  value: readonly T[];
  onChange: (value: T[]) => void;
  error?: string | undefined;
}) {
  return (
    <CheckboxGroup legend={legend} {...(hint ? { hint } : {})} error={error}>
      {options.length === 0 && <p className="text-sm text-muted">{empty}</p>}
      {options.map((option) => (
        <CheckboxOption
          key={option.value}
          label={option.label}
          {...(option.description ? { description: option.description } : {})}
          disabled={option.disabled ?? false}
          checked={value.includes(option.value)}
          onChange={(checked) =>
            onChange(checked ? [...value, option.value] : value.filter((chosen) => chosen !== option.value))
          }
        />
      ))}
    </CheckboxGroup>
  );
}

/**
 * The permission checkboxes with what each allows. 'all' ("Full access") can be given or taken only by
 * members who hold it.
 */
export function PermissionFields({
  value,
  onChange,
  fullAccess,
  disabled = false,
  hint,
  error,
}: {
  value: readonly StaffPermission[];
  onChange: (value: StaffPermission[]) => void;
  fullAccess: boolean;
  disabled?: boolean;
  hint?: string;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <ChoiceList
      legend={t('team.permissions.legend')}
      {...(hint ? { hint } : {})}
      empty=""
      options={STAFF_PERMISSIONS.map((permission) => ({
        value: permission,
        label: t(`team.permissions.${permission}.label`),
        description: t(`team.permissions.${permission}.description`),
        disabled: disabled || (permission === 'all' && !fullAccess),
      }))}
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}

/** The permissions of a member or an invitation, as short translated chips. */
export function PermissionChips({ permissions }: { permissions: readonly StaffPermission[] }) {
  const { t } = useTranslation();
  if (permissions.length === 0) return <p className="text-sm text-muted">{t('team.permissions.none')}</p>;
  return (
    <ul aria-label={t('team.permissions.legend')} className="flex flex-wrap gap-1.5">
      {permissions.map((permission) => (
        <li
          key={permission}
          className="rounded-full border border-border bg-surface-muted px-2.5 py-0.5 text-xs font-medium"
        >
          {t(`team.permissions.${permission}.label`)}
        </li>
      ))}
    </ul>
  );
}
