import { z } from 'zod';
import { API_KEY_SCOPES, DEFAULTS, LANGUAGES } from '../constants.ts';
import { PAYMENT_MESSAGES as P, SETUP_MESSAGES as S } from '../messages.ts';
import {
  BANK_ACCOUNTS_MAX,
  BankAccountSchema,
  FEE_OPTIONS_MAX,
  FeeChannelSchema,
  FeeOptionSchema,
  MOBILE_MONEY_MARKETS,
  fromMinor,
  isMobileMoneyChannel,
  toMinor,
  type FeeOption,
} from './payments.ts';
import { DEFAULT_RUBRIC, RubricCriterionSchema, RubricSchema } from './rubric.ts';

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
export type PartnerGeneralSettings = z.infer<typeof PartnerGeneralSettingsSchema>;

/** Every IANA time zone this runtime knows, and UTC (which some runtimes list only as Etc/UTC). */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

export const isTimeZone = (value: string) => value === 'UTC' || Intl.supportedValuesOf('timeZone').includes(value);

export const PartnerGeneralSettingsUpdateSchema = z
  .object({
    default_language: z.enum(LANGUAGES, S.languages_invalid),
    supported_languages: z
      .array(z.enum(LANGUAGES, S.languages_invalid), S.languages_invalid)
      .min(1, S.languages_invalid)
      // Kept in the product's order, each once, whatever order the boxes were ticked in.
      .transform((chosen) => LANGUAGES.filter((language) => chosen.includes(language))),
    default_currency: z.string().regex(/^[A-Z]{3}$/, S.currency_invalid),
    timezone: z.string().refine(isTimeZone, S.timezone_invalid),
    current_cycle_id: z.uuid(S.current_cycle_invalid).nullable(),
  })
  .superRefine((value, ctx) => {
    if (!value.supported_languages.includes(value.default_language)) {
      ctx.addIssue({ code: 'custom', path: ['default_language'], message: S.languages_invalid });
    }
  });
export type PartnerGeneralSettingsUpdate = z.input<typeof PartnerGeneralSettingsUpdateSchema>;

/** The current admission cycle alone: the cycles screen sets it too. */
export const CurrentCycleUpdateSchema = z.object({ cycle_id: z.uuid(S.current_cycle_invalid).nullable() });
export type CurrentCycleUpdate = z.infer<typeof CurrentCycleUpdateSchema>;

/**
 * The fonts an institution may choose: system stacks only, so a themed page never loads anything from
 * another site and reads well in every language. Keyed by a name the dashboard translates.
 */
export const THEME_FONTS = {
  system: 'system-ui, sans-serif',
  humanist: "'Segoe UI', Candara, 'Gill Sans', 'DejaVu Sans', sans-serif",
  geometric: "Avenir, Montserrat, Corbel, 'URW Gothic', source-sans-pro, sans-serif",
  serif: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, serif",
  classical: "'Iowan Old Style', 'Palatino Linotype', 'URW Palladio L', P052, serif",
  monospace: "ui-monospace, 'Cascadia Code', 'Source Code Pro', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
} as const;
export type ThemeFont = keyof typeof THEME_FONTS;
const FONT_STACKS = Object.values(THEME_FONTS) as [string, ...string[]];

const HexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, S.color_invalid);
const pixels = (min: number, max: number) =>
  z.int(S.value_out_of_range).min(min, S.value_out_of_range).max(max, S.value_out_of_range);

export const THEME_HEADER_STYLES = ['standard', 'compact'] as const;

export const PartnerThemeSchema = z.object({
  colors: z.object({
    primary: HexColorSchema,
    secondary: HexColorSchema,
    accent: HexColorSchema,
    background: HexColorSchema,
    surface: HexColorSchema,
    text: HexColorSchema,
  }),
  typography: z.object({ font_family: z.enum(FONT_STACKS, S.font_invalid), base_size_px: pixels(12, 24) }),
  spacing: z.object({ unit_px: pixels(2, 12) }),
  borderRadius: z.object({ small_px: pixels(0, 24), medium_px: pixels(0, 32), large_px: pixels(0, 48) }),
  effects: z.object({ shadows: z.boolean(), animations: z.boolean() }),
  layout: z.object({ max_width_px: pixels(640, 1920), header_style: z.enum(THEME_HEADER_STYLES) }),
});
export type PartnerTheme = z.infer<typeof PartnerThemeSchema>;
/** The theme is replaced whole: the editor always sends every value. */
export const PartnerThemeUpdateSchema = PartnerThemeSchema;

/** Words in braces that an admission letter's template may use; the letter fills them in. */
export const ADMISSION_LETTER_PLACEHOLDERS = [
  'student_name',
  'program_name',
  'campus_name',
  'university_name',
  'decision_date',
  'cycle_name',
  'reference',
] as const;
export const ADMISSION_LETTER_MAX_LENGTH = 10_000;

export const AdmissionLetterSchema = z.object({
  template: z.string(),
  signature_name: z.string(),
  signature_title: z.string(),
  signature_image: z.string().nullable(),
});

const StageSchema = z.object({ id: z.string().min(1), name: z.string().min(1), order: z.int().nonnegative() });
export type CustomStage = z.infer<typeof StageSchema>;
export const CUSTOM_STAGES_MAX = 20;

/**
 * The fee options of settings saved before institutions set a fee per currency: the one fee, payable by
 * card, or none when it is 0 (migration 0018 writes these into every stored row; this reads any left).
 */
export function legacyFeeOptions(amount: number, currency: string): FeeOption[] {
  return amount > 0 ? [{ currency, amount: toMinor(amount, currency), channels: ['card'] }] : [];
}

/** The spec's single fee (application_fee, application_fee_currency) is the first option's, or 0 when none. */
export function primaryFee(options: readonly FeeOption[], fallbackCurrency: string) {
  const [first] = options;
  return first
    ? { application_fee: fromMinor(first.amount, first.currency), application_fee_currency: first.currency }
    : { application_fee: 0, application_fee_currency: fallbackCurrency };
}

/** What automatic decisions are taken on. */
export const AUTO_DECISION_BASES = ['review_score', 'entry_requirements'] as const;
export type AutoDecisionBasis = (typeof AUTO_DECISION_BASES)[number];

export const PartnerAdmissionsSettingsSchema = z.object({
  auto_accept_enabled: z.boolean(),
  auto_accept_threshold: z.number().min(0).max(100),
  auto_reject_enabled: z.boolean(),
  auto_reject_threshold: z.number().min(0).max(100),
  /**
   * What the automatic decisions follow (issue 25): the reviewers' average score against the thresholds,
   * or eligibility against the program's entry requirements (accepted when eligible, rejected when not;
   * a case that needs review is left to people).
   */
  auto_decision_basis: z.enum(AUTO_DECISION_BASES).default('review_score'),
  application_fee: z.number().nonnegative(),
  application_fee_currency: z.string().regex(/^[A-Z]{3}$/),
  admission_letter: AdmissionLetterSchema,
  custom_stages: z.array(StageSchema),
  /** The review rubric (issue 8): each reviewer scores every criterion; older rows get the default. */
  rubric: z.array(RubricCriterionSchema).min(1).default(DEFAULT_RUBRIC),
  /** Reviewers without make_decisions see applicants without their name or photo. */
  blind_review: z.boolean().default(false),
  /** The fee per currency the institution charges in, and how it may be paid in each (issue 22). */
  application_fees: z.array(FeeOptionSchema).max(FEE_OPTIONS_MAX),
  /** Where applicants deposit the fee, one account per currency (the bank_slip channel needs its currency's). */
  bank_accounts: z.array(BankAccountSchema).max(BANK_ACCOUNTS_MAX).default([]),
});
export type PartnerAdmissionsSettings = z.output<typeof PartnerAdmissionsSettingsSchema>;

/** Stored admissions settings, read: a row from before fees per currency gets its one fee as the options. */
export function readAdmissionsSettings(stored: unknown): PartnerAdmissionsSettings | undefined {
  if (stored && typeof stored === 'object' && !('application_fees' in stored)) {
    const { application_fee, application_fee_currency } = stored as Record<string, unknown>;
    if (typeof application_fee === 'number' && typeof application_fee_currency === 'string') {
      stored = { ...stored, application_fees: legacyFeeOptions(application_fee, application_fee_currency) };
    }
  }
  return PartnerAdmissionsSettingsSchema.safeParse(stored).data;
}

/** A fee option as staff enter it: the amount in minor units, whole, of a currency the networks collect in. */
const FeeOptionUpdateSchema = z.object({
  currency: z.string(S.currency_invalid).regex(/^[A-Z]{3}$/, S.currency_invalid),
  amount: z.int(P.fee_amount_invalid).positive(P.fee_amount_invalid).max(1_000_000_000_000, P.fee_amount_invalid),
  channels: z
    .array(FeeChannelSchema, P.fee_channels_required)
    .min(1, P.fee_channels_required)
    .transform((channels) => [...new Set(channels)]),
});

/** A bank detail as staff type it: trimmed, and an optional one left empty is stored as null. */
const bankText = (max: number) =>
  z.string(P.bank_field_required).trim().min(1, P.bank_field_required).max(max, P.bank_field_too_long);
const optionalBankText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, P.bank_field_too_long)
    .nullish()
    .transform((value) => value || null);

/** The institution's account for deposits in one currency, as staff enter it. */
export const BankAccountUpdateSchema = z.object({
  currency: z.string(S.currency_invalid).regex(/^[A-Z]{3}$/, S.currency_invalid),
  bank_name: bankText(120),
  account_name: bankText(120),
  account_number: bankText(64),
  branch: optionalBankText(120),
  swift: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^([A-Z0-9]{8}([A-Z0-9]{3})?)?$/, P.swift_invalid)
    .nullish()
    .transform((value) => value || null),
  instructions: optionalBankText(1000),
});
export type BankAccountUpdate = z.input<typeof BankAccountUpdateSchema>;

const threshold = z.number(S.threshold_invalid).min(0, S.threshold_invalid).max(100, S.threshold_invalid);
const isHttpsAddress = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.includes('.');
  } catch {
    return false;
  }
};

export const PartnerAdmissionsSettingsUpdateSchema = z
  .object({
    auto_accept_enabled: z.boolean(),
    auto_accept_threshold: threshold,
    auto_reject_enabled: z.boolean(),
    auto_reject_threshold: threshold,
    auto_decision_basis: z.enum(AUTO_DECISION_BASES).default('review_score'),
    /** Derived from `application_fees` when it is sent (the first option); kept for clients of the single fee. */
    application_fee: z
      .number(S.amount_invalid)
      .nonnegative(S.amount_invalid)
      .max(1_000_000, S.amount_invalid)
      .optional(),
    application_fee_currency: z
      .string()
      .regex(/^[A-Z]{3}$/, S.currency_invalid)
      .optional(),
    application_fees: z.array(FeeOptionUpdateSchema).max(FEE_OPTIONS_MAX, S.value_out_of_range).optional(),
    bank_accounts: z.array(BankAccountUpdateSchema).max(BANK_ACCOUNTS_MAX, S.value_out_of_range).default([]),
    admission_letter: z.object({
      template: z.string().max(ADMISSION_LETTER_MAX_LENGTH, S.text_too_long),
      signature_name: z.string().trim().max(120, S.text_too_long),
      signature_title: z.string().trim().max(120, S.text_too_long),
      signature_image: z
        .string()
        .trim()
        .max(2000, S.text_too_long)
        .refine((value) => value === '' || isHttpsAddress(value), S.signature_image_invalid)
        .nullable()
        .transform((value) => value || null),
    }),
    custom_stages: z
      .array(
        z.object({
          id: z
            .string()
            .min(1, S.stage_ids_unique)
            .max(64, S.text_too_long)
            .regex(/^[A-Za-z0-9_-]+$/, S.stage_ids_unique),
          name: z.string().trim().min(1, S.name_required).max(60, S.text_too_long),
        }),
      )
      .max(CUSTOM_STAGES_MAX, S.value_out_of_range)
      // The list's order is the stages' order: `order` is always the index, whatever was sent.
      .transform((stages) => stages.map((stage, order) => ({ ...stage, order }))),
    rubric: RubricSchema.default(DEFAULT_RUBRIC),
    blind_review: z.boolean().default(false),
  })
  .superRefine((value, ctx) => {
    if (
      value.auto_accept_enabled &&
      value.auto_reject_enabled &&
      value.auto_reject_threshold >= value.auto_accept_threshold
    ) {
      ctx.addIssue({ code: 'custom', path: ['auto_reject_threshold'], message: S.threshold_order });
    }
    const ids = new Set<string>();
    const names = new Set<string>();
    value.custom_stages.forEach((stage, index) => {
      if (ids.has(stage.id)) {
        ctx.addIssue({ code: 'custom', path: ['custom_stages', index, 'id'], message: S.stage_ids_unique });
      }
      const name = stage.name.toLocaleLowerCase();
      if (names.has(name)) {
        ctx.addIssue({ code: 'custom', path: ['custom_stages', index, 'name'], message: S.stage_names_unique });
      }
      ids.add(stage.id);
      names.add(name);
    });
    const currencies = new Set<string>();
    value.application_fees?.forEach((option, index) => {
      if (currencies.has(option.currency)) {
        ctx.addIssue({
          code: 'custom',
          path: ['application_fees', index, 'currency'],
          message: P.fee_currencies_unique,
        });
      }
      currencies.add(option.currency);
      option.channels.forEach((channel) => {
        if (
          isMobileMoneyChannel(channel) &&
          !MOBILE_MONEY_MARKETS[channel].some((m) => m.currency === option.currency)
        ) {
          ctx.addIssue({
            code: 'custom',
            path: ['application_fees', index, 'channels'],
            message: P.channel_not_accepted,
          });
        }
      });
    });
    const banked = new Set<string>();
    value.bank_accounts.forEach((account, index) => {
      if (banked.has(account.currency)) {
        ctx.addIssue({
          code: 'custom',
          path: ['bank_accounts', index, 'currency'],
          message: P.bank_account_currencies_unique,
        });
      }
      banked.add(account.currency);
    });
    value.application_fees?.forEach((option, index) => {
      if (option.channels.includes('bank_slip') && !banked.has(option.currency)) {
        ctx.addIssue({
          code: 'custom',
          path: ['application_fees', index, 'channels'],
          message: P.bank_details_missing,
        });
      }
    });
    if (value.application_fees === undefined && value.application_fee === undefined) {
      ctx.addIssue({ code: 'custom', path: ['application_fees'], message: P.fee_channels_required });
    }
  })
  // One fee, two shapes: the options when sent (the single fee is the first's), else the single fee by card.
  .transform(({ application_fee, application_fee_currency, application_fees, ...rest }) => {
    const currency = application_fee_currency ?? DEFAULTS.applicationFeeCurrency;
    const options = application_fees ?? legacyFeeOptions(application_fee ?? 0, currency);
    return { ...rest, application_fees: options, ...primaryFee(options, currency) };
  });
export type PartnerAdmissionsSettingsUpdate = z.input<typeof PartnerAdmissionsSettingsUpdateSchema>;

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

export const ApiKeyListSchema = z.array(PartnerApiKeySchema);

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
      typography: { font_family: THEME_FONTS.system, base_size_px: 16 },
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
      auto_decision_basis: 'review_score',
      application_fee: DEFAULTS.applicationFee,
      application_fee_currency: DEFAULTS.applicationFeeCurrency,
      admission_letter: { template: '', signature_name: '', signature_title: '', signature_image: null },
      custom_stages: [],
      rubric: DEFAULT_RUBRIC,
      blind_review: false,
      application_fees: legacyFeeOptions(DEFAULTS.applicationFee, DEFAULTS.applicationFeeCurrency),
      bank_accounts: [],
    },
  };
}

/**
 * The institution's theme when it has made one, else null: an institution still on the default theme (or
 * with a stored one that no longer reads as a theme) keeps the app's own look, light or dark as the reader
 * chose. Both sides go through the schema, so key order never decides.
 */
export function customTheme(stored: unknown): PartnerTheme | null {
  const theme = PartnerThemeSchema.safeParse(stored).data;
  if (!theme) return null;
  const defaults = PartnerThemeSchema.parse(defaultPartnerSettings().theme);
  return JSON.stringify(theme) === JSON.stringify(defaults) ? null : theme;
}
