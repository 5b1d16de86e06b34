import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { holdsPermission, type SubmissionReceipt } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { EmptyState } from '../../../components/list-states.tsx';
import { useSession } from '../../../lib/session.tsx';
import { AnswersStep } from './answers-step.tsx';
import { ApplicantStep } from './applicant-step.tsx';
import type { ApplicantForm } from './on-behalf-form.ts';
import { ProgramStep, type ProgramChoice } from './program-step.tsx';
import { ReceiptPanel } from './receipt-panel.tsx';

const STEPS = ['applicant', 'program', 'answers'] as const;
type Step = (typeof STEPS)[number] | 'done';

/**
 * Submitting an application for a named applicant (spec section 6): who they are, the program and
 * campus, the form; the submission is unpaid and marked as made by the institution.
 */
export function OnBehalfPage() {
  const { t } = useTranslation();
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const partnerId = user?.partner_id ?? '';
  const allowed = holdsPermission(user?.staff_permissions, 'submit_applications');

  return (
    <div className="mx-auto flex w-full max-w-3xl min-w-0 flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{t('on_behalf.title')}</h1>
        {allowed && <p className="text-muted">{t('on_behalf.intro')}</p>}
      </div>
      {allowed ? (
        <OnBehalfSteps partnerId={partnerId} />
      ) : (
        <EmptyState
          title={t('on_behalf.no_permission_title')}
          text={t('on_behalf.no_permission')}
          action={
            <Link to={paths.partner.dashboard} className="btn-secondary">
              {t('on_behalf.dashboard_link')}
            </Link>
          }
        />
      )}
    </div>
  );
}

function OnBehalfSteps({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('applicant');
  const [applicant, setApplicant] = useState<ApplicantForm | null>(null);
  const [choice, setChoice] = useState<ProgramChoice | null>(null);
  const [receipt, setReceipt] = useState<SubmissionReceipt | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // Each new step takes the focus to its heading, so keyboard and screen reader users start there.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step]);

  const restart = () => {
    setApplicant(null);
    setChoice(null);
    setReceipt(null);
    setStep('applicant');
  };

  if (step === 'done' && receipt && applicant) {
    return <ReceiptPanel ref={heading} receipt={receipt} email={applicant.email} onAnother={restart} />;
  }
  const index = STEPS.indexOf(step === 'done' ? 'answers' : step);
  return (
    <section aria-labelledby="on-behalf-step" className="flex flex-col gap-5">
      <ol aria-label={t('on_behalf.steps_label')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {STEPS.map((id, position) => (
          <li
            key={id}
            aria-current={position === index ? 'step' : undefined}
            className={position === index ? 'font-semibold text-fg' : 'text-muted'}
          >
            {position + 1}. {t(`on_behalf.steps.${id}`)}
            <span className="sr-only">
              {' '}
              {position === index ? t('on_behalf.current_step') : position < index ? t('on_behalf.done_step') : ''}
            </span>
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-1">
        <p className="text-sm text-muted">{t('on_behalf.step_of', { number: index + 1, total: STEPS.length })}</p>
        <h2 id="on-behalf-step" ref={heading} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          {t(`on_behalf.steps.${STEPS[index] ?? 'applicant'}`)}
        </h2>
      </div>
      {step === 'applicant' && (
        <ApplicantStep
          initial={applicant}
          onDone={(next) => {
            setApplicant(next);
            setStep('program');
          }}
        />
      )}
      {step === 'program' && (
        <ProgramStep
          partnerId={partnerId}
          initial={choice}
          onBack={() => setStep('applicant')}
          onDone={(next) => {
            setChoice(next);
            setStep('answers');
          }}
        />
      )}
      {(step === 'answers' || step === 'done') && applicant && choice && (
        <AnswersStep
          partnerId={partnerId}
          applicant={applicant}
          choice={choice}
          onBack={() => setStep('program')}
          onSubmitted={(next) => {
            setReceipt(next);
            setStep('done');
          }}
        />
      )}
    </section>
  );
}
