import { z } from 'zod';
import { ExamRequirementSchema } from '../exams/requirements.ts';
import { DECISION_MESSAGES as D } from '../messages.ts';

/*
 * The terms of an offer (issue 26, ADR 051): conditions the applicant still has to meet (a sentence, or
 * examination results in the entry requirements' own form, "KCSE mean grade B or better"), and the day
 * by which the applicant must reply. Staff mark the conditions met (the offer becomes unconditional) or
 * not met (the offer ends); an offer left unanswered past its day lapses.
 */
export const OFFER_CONDITIONS_MAX = 10;
export const OfferConditionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    text: z.string().trim().min(1, D.condition_required).max(300, D.condition_too_long),
  }),
  z.object({ kind: z.literal('exam'), requirement: ExamRequirementSchema }),
]);
export type OfferCondition = z.infer<typeof OfferConditionSchema>;

/** Where an offer's conditions stand; null on an offer without conditions and on any other decision. */
export const CONDITIONS_STATUSES = ['pending', 'met', 'not_met'] as const;
export const ConditionsStatusSchema = z.enum(CONDITIONS_STATUSES);
export type ConditionsStatus = z.infer<typeof ConditionsStatusSchema>;

/** Reminders of an unanswered offer, this many days before its reply deadline. */
export const OFFER_REPLY_REMINDER_DAYS = [7, 1] as const;
