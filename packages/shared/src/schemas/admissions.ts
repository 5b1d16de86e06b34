import { z } from 'zod';
import { SETUP_MESSAGES as S, VALIDATION_MESSAGES as V } from '../messages.ts';
import { ProgramLevelSchema, StudyFieldSchema } from './catalogue.ts';
import { EntryRulesSchema } from '../exams/requirements.ts';

/*
 * An institution's admissions offer (spec section 3, partner subcollections): campuses, programs offered
 * at one or more campuses, and admission cycles during which chosen programs are open for application.
 */

export const requiredName = (max = 160) =>
  z.string({ error: S.name_required }).trim().min(1, S.name_required).max(max, S.text_too_long);
const text = (max: number) => z.string().trim().max(max, S.text_too_long);
export const CurrencySchema = z.string().regex(/^[A-Z]{3}$/, S.currency_invalid);
/** A calendar day, yyyy-mm-dd. */
export const DaySchema = z.iso.date(S.date_invalid);

/* ---------------------------------------------------------------- campuses */

export const CampusInputSchema = z.object({
  name: requiredName(),
  address: text(300),
  city: z.string({ error: V.city_required }).trim().min(1, V.city_required).max(120, S.text_too_long),
  country: z.string().regex(/^[A-Z]{2}$/, S.country_invalid),
});
export type CampusInput = z.infer<typeof CampusInputSchema>;

export const CampusSchema = CampusInputSchema.extend({
  id: z.uuid(),
  /** How many programs are offered here. */
  program_count: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Campus = z.infer<typeof CampusSchema>;

/* ---------------------------------------------------------------- programs */

/** Languages a program can be taught in (ISO 639-1), the continent's common languages of instruction. */
export const INSTRUCTION_LANGUAGES = ['en', 'fr', 'rw', 'sw', 'ar', 'pt', 'am', 'ha', 'yo', 'zu', 'af', 'so'] as const;
export const InstructionLanguageSchema = z.enum(INSTRUCTION_LANGUAGES);

export const ProgramInputSchema = z.object({
  name: requiredName(),
  level: ProgramLevelSchema,
  field: StudyFieldSchema,
  /** Length of the program in months (a four-year degree is 48). */
  duration_months: z.int(S.number_invalid).min(1, S.number_invalid).max(120, S.number_invalid),
  language: InstructionLanguageSchema,
  /** Tuition per year in the given currency, whole units. */
  tuition_amount: z.int(S.amount_invalid).min(0, S.amount_invalid).max(10_000_000, S.amount_invalid),
  tuition_currency: CurrencySchema,
  /** Entry requirements as the institution words them: what a person checks beyond `entry_rules`. */
  requirements: text(4000),
  /** The rules per examination that eligibility is computed from (issue 25); checked against the exam data by the api. */
  entry_rules: EntryRulesSchema.default({ exams: [] }),
  /** Places offered per intake; null when not capped. */
  seats: z.int(S.number_invalid).min(1, S.number_invalid).max(1_000_000, S.number_invalid).nullable(),
  campus_ids: z.array(z.uuid()).min(1, S.campus_required).max(100),
});
export type ProgramInput = z.infer<typeof ProgramInputSchema>;

export const ProgramSchema = ProgramInputSchema.extend({
  id: z.uuid(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Program = z.infer<typeof ProgramSchema>;

/* ---------------------------------------------------------------- cycles */

export const CYCLE_STATUSES = ['draft', 'open', 'closed'] as const;
export const CycleStatusSchema = z.enum(CYCLE_STATUSES);
export type CycleStatus = z.infer<typeof CycleStatusSchema>;

/**
 * A cycle accepts applications while it is open and between its opening day and the end of its closing
 * day in the institution's time zone. Decisions are released on or after the closing day.
 */
export const CycleInputSchema = z
  .object({
    name: requiredName(),
    opens_on: DaySchema,
    closes_on: DaySchema,
    decision_release_on: DaySchema.nullable(),
    status: CycleStatusSchema,
    /** The programs open for application in this cycle. */
    program_ids: z.array(z.uuid()).max(1000),
  })
  .superRefine((cycle, ctx) => {
    if (cycle.closes_on < cycle.opens_on) {
      ctx.addIssue({ code: 'custom', path: ['closes_on'], message: S.cycle_dates_order });
    }
    if (cycle.decision_release_on && cycle.decision_release_on < cycle.closes_on) {
      ctx.addIssue({ code: 'custom', path: ['decision_release_on'], message: S.decision_date_order });
    }
  });
export type CycleInput = z.infer<typeof CycleInputSchema>;

export const CycleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  opens_on: z.string(),
  closes_on: z.string(),
  decision_release_on: z.string().nullable(),
  status: CycleStatusSchema,
  program_ids: z.array(z.uuid()),
  /** Whether this is the institution's current cycle (settings.general.current_cycle_id). */
  current: z.boolean(),
  /** Whether it takes applications today (cycleAcceptsApplications in the institution's time zone). */
  accepting_applications: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Cycle = z.infer<typeof CycleSchema>;

/** Building a formatter costs far more than using one: one per time zone, kept (an unknown zone reads as UTC). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timezone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timezone);
  if (!format) {
    const options = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
    try {
      format = new Intl.DateTimeFormat('en-CA', { ...options, timeZone: timezone });
    } catch {
      format = new Intl.DateTimeFormat('en-CA', { ...options, timeZone: 'UTC' });
    }
    dayFormats.set(timezone, format);
  }
  return format;
}

/** The last answer per time zone, for the minute it was read in: every autosave asks, and days change slowly. */
const lastDays = new Map<string, { minute: number; day: string }>();

/** The day it is at `now` in a time zone, yyyy-mm-dd (an unknown zone counts as UTC). */
export function dayInTimeZone(now: Date, timezone: string): string {
  // Every zone's offset is a whole number of minutes: within one minute of UTC, the day is the same.
  const minute = Math.floor(now.getTime() / 60_000);
  const last = lastDays.get(timezone);
  if (last?.minute === minute) return last.day;
  const parts = Object.fromEntries(
    dayFormat(timezone)
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  lastDays.set(timezone, { minute, day });
  return day;
}

/**
 * Whether a cycle takes drafts and submissions at `now`: its status is open and, in the institution's time
 * zone, today is between its opening and closing days (both included).
 */
export function cycleAcceptsApplications(
  cycle: Pick<CycleInput, 'status' | 'opens_on' | 'closes_on'>,
  timezone: string,
  now: Date,
): boolean {
  if (cycle.status !== 'open') return false;
  const today = dayInTimeZone(now, timezone);
  return cycle.opens_on <= today && today <= cycle.closes_on;
}

/** Filters of the staff's program list. */
export const ProgramListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  level: ProgramLevelSchema.optional(),
  field: StudyFieldSchema.optional(),
});
export type ProgramListQuery = z.infer<typeof ProgramListQuerySchema>;
