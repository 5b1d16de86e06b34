import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewOptions, ReviewQueueRow, SubmissionStatus } from '@kaminuza/shared';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';

/** Dates and numbers in the reader's language. */
export function useReviewFormats() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => {
    const date = dateTimeFormat(language, { dateStyle: 'medium' });
    const dateTime = dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const score = numberFormat(language, { maximumFractionDigits: 2 });
    const money = (amount: number, currency: string) => {
      try {
        return numberFormat(language, { style: 'currency', currency }).format(amount);
      } catch {
        return `${score.format(amount)} ${currency}`;
      }
    };
    return {
      date: (iso: string) => date.format(new Date(iso)),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      /** A calendar day (`YYYY-MM-DD`) as the reader writes it. */
      day: (day: string) => date.format(new Date(`${day}T12:00:00Z`)),
      score: (value: number) => score.format(value),
      money,
    };
  }, [language]);
}

const TONES = {
  neutral: 'border-border text-fg',
  muted: 'border-border text-muted',
  brand: 'border-brand text-brand',
  good: 'border-green-700 text-green-800 dark:text-green-300',
  warn: 'border-amber-600 text-amber-800 dark:text-amber-300',
  bad: 'border-red-700 text-red-800 dark:text-red-300',
} as const;
export type Tone = keyof typeof TONES;

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

const STATUS_TONE: Record<SubmissionStatus, Tone> = {
  submitted: 'brand',
  under_review: 'neutral',
  accepted: 'good',
  rejected: 'bad',
  waitlisted: 'warn',
};

export function StatusBadge({ status }: { status: SubmissionStatus }) {
  const { t } = useTranslation();
  return <Badge tone={STATUS_TONE[status]}>{t(`review.status.${status}`)}</Badge>;
}

/** A decision as staff see it in the queue, on one line: its state, and whether it is a draft (and an automatic one) or released. */
export function DecisionBadge({ decision }: { decision: NonNullable<ReviewQueueRow['decision']> }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-nowrap gap-1">
      <Badge tone={STATUS_TONE[decision.state]}>{t(`review.decision.states.${decision.state}`)}</Badge>
      {decision.released ? (
        <Badge tone="muted">{t('review.decision.released_badge')}</Badge>
      ) : (
        <Badge tone="muted">
          {t(decision.automatic ? 'review.decision.automatic_draft_badge' : 'review.decision.draft_badge')}
        </Badge>
      )}
    </span>
  );
}

/** The name of a custom stage, or what the application's status says when it has none. */
export function useStageName(stages: ReviewOptions['stages'] | undefined) {
  const { t } = useTranslation();
  return (stageId: string | null) => {
    if (stageId === null) return t('review.stage.none');
    return stages?.find((stage) => stage.id === stageId)?.name ?? t('review.stage.unknown');
  };
}
