import { z } from 'zod';
import { API_KEY_SCOPES, DEFAULTS, LANGUAGES } from '../constants.ts';
import { SETUP_MESSAGES as S } from '../messages.ts';

/*
 * An institution's settings (spec section 3): general, theme, admissions and API keys. The defaults are
 * what a new institution starts with (spec section 9); the admissions screens edit them later.
 */

export const PartnerGeneralSettingsSchema = z.object({
  default_language: z.enum(LANGUAGES),
  supported_languages: z.array(z.enum(LANGUAGES)).min(1),
  default_currency: z.string().regex(/^[A-Z]{3}$/),
  timezone: z.string().min(1),
  current_cycle_id: z.uuid().nullable(),
});

const HexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/);

export const PartnerThemeSchema = z.object({
  colors: z.object({
    primary: HexColorSchema,
    secondary: HexColorSchema,
    accent: HexColorSchema,
    background: HexColorSchema,
    surface: HexColorSchema,
    text: HexColorSchema,
  }),
  typography: z.object({ font_family: z.string().min(1), base_size_px: z.int().min(10).max(32) }),
  spacing: z.object({ unit_px: z.int().min(1).max(32) }),
  borderRadius: z.object({ small_px: z.int().min(0), medium_px: z.int().min(0), large_px: z.int().min(0) }),
  effects: z.object({ shadows: z.boolean(), animations: z.boolean() }),
  layout: z.object({ max_width_px: z.int().min(320), header_style: z.enum(['standard', 'compact']) }),
});

export const AdmissionLetterSchema = z.object({
  template: z.string(),
  signature_name: z.string(),
  signature_title: z.string(),
  signature_image: z.string().nullable(),
});

export const PartnerAdmissionsSettingsSchema = z.object({
  auto_accept_enabled: z.boolean(),
  auto_accept_threshold: z.number().min(0).max(100),
  auto_reject_enabled: z.boolean(),
  auto_reject_threshold: z.number().min(0).max(100),
  application_fee: z.number().nonnegative(),
  application_fee_currency: z.string().regex(/^[A-Z]{3}$/),
  admission_letter: AdmissionLetterSchema,
  custom_stages: z.array(z.object({ id: z.string().min(1), name: z.string().min(1), order: z.int().nonnegative() })),
});

/** An API key as its institution sees it: never the key itself, which is shown once when created. */
export const PartnerApiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type PartnerApiKey = z.infer<typeof PartnerApiKeySchema>;

export const ApiKeyCreateSchema = z.object({
  name: z.string().trim().min(1, S.name_required).max(100, S.text_too_long),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1, S.scope_required),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;

/** The answer to creating a key: the only time the key is shown. */
export const CreatedApiKeySchema = z.object({ key: z.string(), api_key: PartnerApiKeySchema });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

/** The stored settings (api keys live in their own table, listed with them). */
export const StoredPartnerSettingsSchema = z.object({
  general: PartnerGeneralSettingsSchema,
  theme: PartnerThemeSchema,
  admissions: PartnerAdmissionsSettingsSchema,
});
export type StoredPartnerSettings = z.infer<typeof StoredPartnerSettingsSchema>;

/** Spec section 3's settings as the dashboard reads them. */
export const PartnerSettingsSchema = StoredPartnerSettingsSchema.extend({ api_keys: z.array(PartnerApiKeySchema) });
export type PartnerSettings = z.infer<typeof PartnerSettingsSchema>;

/** A new institution's settings: the spec's defaults, and a theme in the product's own colours. */
export function defaultPartnerSettings(): StoredPartnerSettings {
  return {
    general: {
      default_language: DEFAULTS.language,
      supported_languages: [DEFAULTS.language],
      default_currency: DEFAULTS.currency,
      timezone: DEFAULTS.timezone,
      current_cycle_id: null,
    },
    theme: {
      colors: {
        primary: '#1d4ed8',
        secondary: '#0f766e',
        accent: '#f59e0b',
        background: '#ffffff',
        surface: '#f8fafc',
        text: '#0f172a',
      },
      typography: { font_family: 'system-ui, sans-serif', base_size_px: 16 },
      spacing: { unit_px: 4 },
      borderRadius: { small_px: 4, medium_px: 8, large_px: 16 },
      effects: { shadows: true, animations: true },
      layout: { max_width_px: 1200, header_style: 'standard' },
    },
    admissions: {
      auto_accept_enabled: DEFAULTS.autoAcceptEnabled,
      auto_accept_threshold: DEFAULTS.autoAcceptThreshold,
      auto_reject_enabled: DEFAULTS.autoRejectEnabled,
      auto_reject_threshold: DEFAULTS.autoRejectThreshold,
      application_fee: DEFAULTS.applicationFee,
      application_fee_currency: DEFAULTS.applicationFeeCurrency,
      admission_letter: { template: '', signature_name: '', signature_title: '', signature_image: null },
      custom_stages: [],
    },
  };
}
