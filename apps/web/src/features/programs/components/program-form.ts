import { z } from 'zod';
import { ProgramInputSchema, SETUP_MESSAGES as S, type Program, type ProgramInput } from '@kaminuza/shared';

/** Currencies institutions on the continent charge tuition in, then the common international ones. */
export const TUITION_CURRENCIES = [
  'RWF',
  'KES',
  'UGX',
  'TZS',
  'BIF',
  'CDF',
  'ETB',
  'NGN',
  'GHS',
  'XOF',
  'XAF',
  'ZAR',
  'EGP',
  'MAD',
  'USD',
  'EUR',
  'GBP',
] as const;

const count = (max: number) => z.int(S.number_invalid).min(0, S.number_invalid).max(max, S.number_invalid);

/**
 * The program dialog's form: the duration as years and months, and the seats as "not capped" or a
 * number. It turns into a ProgramInput, which the api validates again.
 */
export const ProgramFormSchema = ProgramInputSchema.omit({ duration_months: true, seats: true })
  .extend({
    duration_years: count(10),
    duration_extra_months: count(11),
    seats_unlimited: z.boolean(),
    /** Only read when the places are limited. */
    seats: z.number().nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.duration_years * 12 + value.duration_extra_months < 1) {
      ctx.addIssue({ code: 'custom', path: ['duration_years'], message: S.number_invalid });
    }
    const seats = value.seats ?? Number.NaN;
    if (!value.seats_unlimited && !(Number.isInteger(seats) && seats >= 1 && seats <= 1_000_000)) {
      ctx.addIssue({ code: 'custom', path: ['seats'], message: S.number_invalid });
    }
  });
export type ProgramForm = z.infer<typeof ProgramFormSchema>;

export function toProgramInput({
  duration_years,
  duration_extra_months,
  seats_unlimited,
  seats,
  ...rest
}: ProgramForm): ProgramInput {
  return {
    ...rest,
    duration_months: duration_years * 12 + duration_extra_months,
    seats: seats_unlimited ? null : seats,
  };
}

/** The form's values for a program, or a new program's defaults. */
export function programFormValues(program: Program | null, campusIds: string[]): ProgramForm {
  if (!program) {
    return {
      name: '',
      level: 'undergraduate',
      field: 'technology',
      duration_years: 4,
      duration_extra_months: 0,
      language: 'en',
      tuition_amount: 0,
      tuition_currency: 'RWF',
      requirements: '',
      seats_unlimited: true,
      seats: null,
      // With one campus there is nothing to choose: the program is taught there.
      campus_ids: campusIds.length === 1 ? campusIds : [],
    };
  }
  const { duration_months, seats, ...rest } = program;
  return {
    name: rest.name,
    level: rest.level,
    field: rest.field,
    language: rest.language,
    tuition_amount: rest.tuition_amount,
    tuition_currency: rest.tuition_currency,
    requirements: rest.requirements,
    campus_ids: rest.campus_ids,
    duration_years: Math.floor(duration_months / 12),
    duration_extra_months: duration_months % 12,
    seats_unlimited: seats === null,
    seats,
  };
}

/** A duration in months as the reader says it: "4 years", "1 year 6 months", "9 months". */
export function durationParts(months: number): { years: number; months: number } {
  return { years: Math.floor(months / 12), months: months % 12 };
}
