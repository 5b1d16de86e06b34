import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  defaultPartnerSettings,
  PartnerThemeUpdateSchema,
  THEME_FONTS,
  THEME_HEADER_STYLES,
  type PartnerTheme,
  type ThemeFont,
} from '@kaminuza/shared';
import { CheckboxField, FieldFrame, SelectField, TextField } from '../../../components/form/field.tsx';
import { InvalidFormAlert } from '../../../components/form/account-fields.tsx';
import { fieldErrors } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useUpdateTheme } from '../api/update-theme.ts';
import { SaveBar, SettingsSection } from './form-parts.tsx';
import { ThemePreview } from './theme-preview.tsx';

const COLORS = ['primary', 'secondary', 'accent', 'background', 'surface', 'text'] as const;
type ColorName = (typeof COLORS)[number];
const isHex = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value);
const FONT_NAMES = Object.keys(THEME_FONTS) as ThemeFont[];

/** `a.b.c` paths of the theme's invalid values, with their messages. */
function issuesOf(theme: PartnerTheme): Record<string, string> {
  const result = PartnerThemeUpdateSchema.safeParse(theme);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

/** The theme with each colour still being typed replaced by the saved one, so the preview never breaks. */
function previewable(theme: PartnerTheme, saved: PartnerTheme): PartnerTheme {
  const colors = { ...theme.colors };
  for (const name of COLORS) if (!isHex(colors[name])) colors[name] = saved.colors[name];
  return { ...theme, colors };
}

export function ThemeSettingsForm({
  partnerId,
  canEdit,
  theme: saved,
}: {
  partnerId: string;
  canEdit: boolean;
  theme: PartnerTheme;
}) {
  const { t } = useTranslation();
  const update = useUpdateTheme(partnerId);
  const { session } = useSession();
  const institutionName =
    (session.status === 'signed-in' ? session.user.partner_name : null) ??
    t('partner_settings.theme.preview.institution');
  const [theme, setTheme] = useState(saved);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [edited, setEdited] = useState(false);
  const l = (key: string) => t(`partner_settings.theme.${key}`);

  const change = (next: PartnerTheme) => {
    setTheme(next);
    setEdited(true);
    // Only fields already marked wrong are checked while typing; the rest on save.
    if (Object.keys(errors).length > 0) setErrors(issuesOf(next));
  };
  const set = <K extends keyof PartnerTheme>(group: K, values: Partial<PartnerTheme[K]>) =>
    change({ ...theme, [group]: { ...theme[group], ...values } });
  const number = (value: string) => (value === '' ? Number.NaN : Number(value));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = issuesOf(theme);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    update.mutate(theme, {
      onSuccess: (settings) => {
        setTheme(settings.theme);
        setEdited(false);
      },
      onError: (error) => setErrors(fieldErrors(error)),
    });
  };

  const numberField = (label: string, path: string, value: number, onChange: (value: number) => void) => (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      value={Number.isNaN(value) ? '' : value}
      error={errors[path]}
      onChange={(event) => onChange(number(event.target.value))}
    />
  );

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <fieldset disabled={!canEdit} className="flex min-w-0 flex-col gap-6">
          <InvalidFormAlert errors={errors} />
          <SettingsSection id="theme-colors" title={l('colors_title')}>
            <p className="text-sm text-muted">{l('colors_hint')}</p>
            <div className="grid gap-4 sm:grid-cols-2">
              {COLORS.map((name: ColorName) => (
                <FieldFrame key={name} label={l(`colors.${name}`)} error={errors[`colors.${name}`]}>
                  {({ id, describedBy, invalid }) => (
                    <div className="flex min-w-0 items-center gap-2">
                      <input
                        type="color"
                        aria-label={t('partner_settings.theme.color_picker', { name: l(`colors.${name}`) })}
                        value={isHex(theme.colors[name]) ? theme.colors[name].toLowerCase() : '#000000'}
                        onChange={(event) => set('colors', { [name]: event.target.value })}
                        className="h-11 w-14 shrink-0 cursor-pointer rounded-lg border border-border bg-surface p-1"
                      />
                      <input
                        id={id}
                        aria-describedby={describedBy}
                        aria-invalid={invalid}
                        value={theme.colors[name]}
                        maxLength={7}
                        spellCheck={false}
                        autoComplete="off"
                        onChange={(event) => set('colors', { [name]: event.target.value.trim() })}
                        className="field-input min-w-0 font-mono aria-invalid:border-danger"
                      />
                    </div>
                  )}
                </FieldFrame>
              ))}
            </div>
          </SettingsSection>

          <SettingsSection id="theme-type" title={l('type_title')}>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label={l('font')}
                hint={l('font_hint')}
                placeholder={t('partner_settings.choose')}
                options={FONT_NAMES.map((name) => ({ value: name, label: l(`fonts.${name}`) }))}
                value={FONT_NAMES.find((name) => THEME_FONTS[name] === theme.typography.font_family) ?? ''}
                error={errors['typography.font_family']}
                onChange={(event) =>
                  set('typography', { font_family: THEME_FONTS[event.target.value as ThemeFont] ?? '' })
                }
              />
              {numberField(l('base_size'), 'typography.base_size_px', theme.typography.base_size_px, (value) =>
                set('typography', { base_size_px: value }),
              )}
            </div>
          </SettingsSection>

          <SettingsSection id="theme-shape" title={l('shape_title')}>
            <div className="grid gap-4 sm:grid-cols-3">
              {numberField(l('radius_small'), 'borderRadius.small_px', theme.borderRadius.small_px, (value) =>
                set('borderRadius', { small_px: value }),
              )}
              {numberField(l('radius_medium'), 'borderRadius.medium_px', theme.borderRadius.medium_px, (value) =>
                set('borderRadius', { medium_px: value }),
              )}
              {numberField(l('radius_large'), 'borderRadius.large_px', theme.borderRadius.large_px, (value) =>
                set('borderRadius', { large_px: value }),
              )}
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              {numberField(l('spacing'), 'spacing.unit_px', theme.spacing.unit_px, (value) =>
                set('spacing', { unit_px: value }),
              )}
              {numberField(l('max_width'), 'layout.max_width_px', theme.layout.max_width_px, (value) =>
                set('layout', { max_width_px: value }),
              )}
            </div>
            <SelectField
              label={l('header_style')}
              placeholder={t('partner_settings.choose')}
              options={THEME_HEADER_STYLES.map((style) => ({ value: style, label: l(`header_styles.${style}`) }))}
              value={theme.layout.header_style}
              onChange={(event) =>
                set('layout', { header_style: event.target.value as PartnerTheme['layout']['header_style'] })
              }
            />
            <CheckboxField
              label={l('shadows')}
              checked={theme.effects.shadows}
              onChange={(event) => set('effects', { shadows: event.target.checked })}
            />
            <CheckboxField
              label={l('animations')}
              checked={theme.effects.animations}
              onChange={(event) => set('effects', { animations: event.target.checked })}
            />
          </SettingsSection>
        </fieldset>
        <div className="min-w-0 lg:sticky lg:top-4 lg:self-start">
          <ThemePreview theme={previewable(theme, saved)} name={institutionName} />
        </div>
      </div>
      <SaveBar canEdit={canEdit} pending={update.isPending} saved={update.isSuccess && !edited} error={update.error}>
        <button
          type="button"
          className="btn-secondary"
          onClick={() => {
            change(defaultPartnerSettings().theme);
            setErrors({});
          }}
        >
          {l('reset')}
        </button>
      </SaveBar>
    </form>
  );
}
