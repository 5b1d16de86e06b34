import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  APPLICATION_STEPS,
  localized,
  messageKey,
  type ApplicationDraft,
  type AnswerValue,
  type DocumentType,
} from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { isLanguage } from '../../../lib/languages.ts';
import { ApplicationFormView } from '../../../components/application-form/application-form-view.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useApplyContext } from '../api/get-apply-context.ts';
import { getApplication, useApplication } from '../api/get-application.ts';
import { applicationKeys } from '../api/keys.ts';
import { saveDraft } from '../api/save-draft.ts';
import { useSubmitApplication } from '../api/submit-application.ts';
import { resumePosition, viewPath, type ApplicationArea } from './application-routes.ts';
import { ConflictDialog, type SavedDraft } from './conflict-dialog.tsx';
import { deleteDeviceDraft, loadDeviceDraft } from './device-drafts.ts';
import type { DeviceDraft } from '../../../lib/device-db.ts';
import { DiscardDraftButton } from './discard-draft.tsx';
import { DocumentUpload } from './document-upload.tsx';
import { PaymentStep } from './payment-step.tsx';
import { FeeWaiverSlot } from '../../../components/fee-waiver-slot.tsx';
import { ReviewStep } from './review-step.tsx';
import { RefereesQuestionAnswer } from './referees-question.tsx';
import { useEligibility } from '../../../components/eligibility/use-eligibility.ts';
import { useApplicationFormats } from './formats.ts';
import { answerIssues, firstIssue, sectionIssues } from './section-issues.ts';
import { SaveIndicator } from './save-indicator.tsx';
import { AUTOSAVE_RETRY_MS, useDraftAutosave, type Answers } from './use-draft-autosave.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { QueryState, ViewFrame } from './view-frame.tsx';

const FORM = APPLICATION_STEPS.indexOf('form');
const PAYMENT = APPLICATION_STEPS.indexOf('payment');
const REVIEW = APPLICATION_STEPS.indexOf('review');

/** …/form: finds the student's application to the institution, then opens it where they left it. */
export function FormScreen({ area, partnerId }: { area: ApplicationArea; partnerId: string }) {
  const context = useApplyContext(partnerId);
  return (
    <QueryState area={area} partnerId={partnerId} query={context}>
      {() => {
        const { application, cycle } = context.data!;
        if (!application) return <Navigate replace to={viewPath(area, partnerId, 'start')} />;
        if (application.status === 'submitted') return <Navigate replace to={viewPath(area, partnerId, 'submitted')} />;
        if (!cycle?.accepting_applications) return <Navigate replace to={viewPath(area, partnerId, 'closed')} />;
        return <DraftLoader area={area} partnerId={partnerId} id={application.id} />;
      }}
    </QueryState>
  );
}

function DraftLoader({ area, partnerId, id }: { area: ApplicationArea; partnerId: string; id: string }) {
  const query = useApplication(id);
  // Each load of the server's draft starts the editor afresh (after "Load the newer version").
  const [generation, setGeneration] = useState(0);
  // The device's copy (IndexedDB answers the page asynchronously): undefined until read.
  const [device, setDevice] = useState<DeviceDraft | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void loadDeviceDraft(id).then((copy) => live && setDevice((current) => (current === undefined ? copy : current)));
    return () => {
      live = false;
    };
  }, [id]);
  const { refetch } = query;
  const reload = useCallback(async () => {
    await refetch();
    // The applicant chose the server's version: the device copy is gone (discardLocal).
    setDevice(null);
    setGeneration((count) => count + 1);
  }, [refetch]);
  return (
    <QueryState area={area} partnerId={partnerId} query={query}>
      {() =>
        // The editor adopts the draft's version once: it must be the server's latest, not a cached copy.
        query.isFetchedAfterMount && device !== undefined ? (
          <DraftEditor
            key={generation}
            area={area}
            partnerId={partnerId}
            draft={query.data!}
            device={device}
            onReload={reload}
          />
        ) : (
          <Spinner />
        )
      }
    </QueryState>
  );
}

interface Position {
  step: number;
  section: number;
}

function DraftEditor({
  area,
  partnerId,
  draft,
  device,
  onReload,
}: {
  area: ApplicationArea;
  partnerId: string;
  draft: ApplicationDraft;
  device: DeviceDraft | null;
  onReload: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const sections = draft.form.sections;
  const eligibility = useEligibility(draft.partner_id);
  const feeDue = draft.fee.amount > 0;
  const paid = draft.payment?.status === 'succeeded' || draft.fee_waived === true;

  const save = useCallback((input: Parameters<typeof saveDraft>[1]) => saveDraft(draft.id, input), [draft.id]);
  const autosave = useDraftAutosave({
    id: draft.id,
    version: draft.version,
    answers: draft.answers as Answers,
    position: { current_step: draft.current_step, current_section_index: draft.current_section_index },
    device,
    save,
  });
  const online = useOnline();
  const [position, setPosition] = useState<Position>(() =>
    resumePosition(autosave.resumeAt.current_step, autosave.resumeAt.current_section_index, sections.length, feeDue),
  );
  // The other side of a conflict, fetched when it opens: what the server holds now (for that conflict only).
  const [fetched, setFetched] = useState<{ conflict: number; draft: SavedDraft } | null>(null);
  const conflictVersion = autosave.conflict?.version ?? null;
  const saved = fetched && fetched.conflict === conflictVersion ? fetched.draft : null;
  useEffect(() => {
    if (conflictVersion === null) return;
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attempt = () =>
      getApplication(draft.id).then(
        (fresh) =>
          live &&
          setFetched({
            conflict: conflictVersion,
            draft: {
              answers: fresh.answers as Answers,
              version: fresh.version,
              last_saved_at: fresh.last_saved_at,
              documents: fresh.documents,
            },
          }),
        // The connection dropped again: the dialog waits with its spinner and asks again shortly.
        () => {
          if (live) retry = setTimeout(() => void attempt(), AUTOSAVE_RETRY_MS);
        },
      );
    void attempt();
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [conflictVersion, draft.id]);
  const [documents, setDocuments] = useState(draft.documents);
  const [campusId, setCampusId] = useState(draft.campus_id);
  const [serverIssues, setServerIssues] = useState<Record<string, string>>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [resolving, setResolving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Sections whose Next was refused (or reached from Review's list): their issues show as the student types.
  const [checked, setChecked] = useState<ReadonlySet<number>>(() => new Set());
  const [issueFocus, setIssueFocus] = useState<{ index: number } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const questions = useRef<HTMLDivElement>(null);
  const focusQuestion = useRef<number | null>(null);
  const submit = useSubmitApplication(draft.id);
  const format = useApplicationFormats();

  const stepNames = APPLICATION_STEPS.filter((step) => step !== 'payment' || feeDue);
  const go = (next: Position) => {
    setPosition(next);
    void autosave.moveTo({ current_step: next.step, current_section_index: next.section });
  };

  /** The control of the section's question at `index`: the form view renders each as a field of the section's fieldset, in order. */
  const controlAt = (index: number | null) => {
    const field =
      index === null
        ? null
        : questions.current?.querySelectorAll(':scope > div > fieldset > :is(div, fieldset)')[index];
    return field?.querySelector<HTMLElement>('input, select, textarea') ?? null;
  };

  // A move between steps or sections starts reading at its heading (or at the question asked for).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const control = controlAt(focusQuestion.current);
    focusQuestion.current = null;
    (control ?? heading.current)?.focus();
    heading.current?.scrollIntoView?.({ block: 'start' });
  }, [position]);

  // A refused Next moves to its first invalid answer once the messages are rendered and tied to the fields.
  useEffect(() => {
    if (issueFocus) controlAt(issueFocus.index)?.focus();
  }, [issueFocus]);

  const clientIssues = useMemo(() => answerIssues(sections, autosave.answers), [sections, autosave.answers]);
  const issues = { ...clientIssues, ...serverIssues };
  const section = sections[position.section];
  const shownIssues = useMemo(
    () => (section && checked.has(position.section) ? sectionIssues(section, autosave.answers) : {}),
    [section, checked, position.section, autosave.answers],
  );
  const fieldIssues = { ...shownIssues, ...serverIssues };

  const setAnswer = (questionId: string, value: AnswerValue | undefined) => {
    if (questionId in serverIssues) {
      setServerIssues((previous) => {
        const next = { ...previous };
        delete next[questionId];
        return next;
      });
    }
    autosave.setAnswer(questionId, value);
  };

  const uploaded = useCallback(
    async (type: DocumentType, questionId: string) => {
      const fresh = await getApplication(draft.id);
      setDocuments(fresh.documents);
      const document = fresh.documents.find((candidate) => candidate.type === type);
      if (document) autosave.setAnswer(questionId, document.id);
    },
    [autosave, draft.id],
  );

  const chooseCampus = (id: string) => {
    setCampusId(id);
    void autosave.setCampus(id);
  };

  /** Next (or on to payment or review): only when the section passes the rules the submission is checked with. */
  const leaveSection = () => {
    if (!section) return;
    const index = firstIssue(section, { ...sectionIssues(section, autosave.answers), ...serverIssues });
    if (index !== null) {
      setChecked((previous) => new Set(previous).add(position.section));
      setIssueFocus({ index });
      return;
    }
    go(
      position.section < sections.length - 1
        ? { step: FORM, section: position.section + 1 }
        : { step: feeDue ? PAYMENT : REVIEW, section: position.section },
    );
  };

  const refreshPayment = () => void queryClient.invalidateQueries({ queryKey: applicationKeys.draft(draft.id) });

  const sendSubmission = async () => {
    setSubmitError(null);
    // Never queued for later: a submission is sent now, with the applicant watching, or not at all.
    if (!navigator.onLine) {
      setSubmitError(t('applications.review.offline'));
      return;
    }
    if (!(await autosave.flush())) {
      setSubmitError(t('applications.review.not_saved'));
      return;
    }
    submit.mutate(autosave.snapshot(), {
      onSuccess: () => {
        void deleteDeviceDraft(draft.id);
        void navigate(viewPath(area, partnerId, 'submitted'));
      },
      onError: (error) => {
        if (hasReason(error, 'already_submitted')) {
          void navigate(viewPath(area, partnerId, 'submitted'));
        } else if (hasReason(error, 'cycle_closed')) {
          void navigate(viewPath(area, partnerId, 'closed'));
        } else {
          setServerIssues(fieldErrors(error));
          setSubmitError(t(errorMessageKey(error)));
        }
      },
    });
  };

  if (autosave.status === 'closed') return <Navigate replace to={viewPath(area, partnerId, 'closed')} />;

  // In the form step the section's own title heads its questions; this heading says where it stands.
  const stepTitle =
    position.step === FORM
      ? sections.length > 0
        ? t('applications.form.section_of', { current: position.section + 1, total: sections.length })
        : t('applications.form.no_sections')
      : t(`applications.steps.${APPLICATION_STEPS[position.step]}`);
  const blockers = [
    ...(campusId ? [] : [t('applications.errors.campus_required')]),
    ...(feeDue && !paid ? [t('applications.errors.payment_required')] : []),
  ];
  const fileQuestions = section?.questions.filter((question) => question.type === 'file') ?? [];
  const campusName = draft.campuses.find((campus) => campus.id === campusId)?.name ?? draft.campus_name;
  const translate = (text: string) => {
    const key = messageKey(text);
    return key ? t(key) : text;
  };
  const listedIssues =
    section?.questions.flatMap((question, index) =>
      question.id in fieldIssues ? [{ index, question, message: fieldIssues[question.id]! }] : [],
    ) ?? [];

  return (
    <ViewFrame theme={draft.theme} wide>
      <header className="flex flex-col gap-2">
        <Link to={paths.student.applications} className="link self-start text-sm">
          {t('applications.links.area')}
        </Link>
        <p className="text-sm font-semibold text-institution-ink">{draft.partner_name}</p>
        <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
          {t('applications.form.title', { program: draft.program_name })}
        </h1>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-muted">
            {t('applications.form.progress', { percent: autosave.progress ?? draft.progress_percentage })}
          </p>
          <SaveIndicator
            status={autosave.status}
            savedAt={autosave.savedAt ?? draft.last_saved_at}
            keptOnDevice={autosave.keptOnDevice}
          />
        </div>
        {!online && (
          // What offline means for this form; that the device is offline, the app-wide banner announces.
          <p className="rounded-xl border border-accent bg-surface p-3 text-sm">
            {t(autosave.keptOnDevice ? 'applications.offline.text' : 'applications.offline.text_not_kept')}
          </p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2">
          {campusId && campusName ? (
            <p className="text-sm break-words">{t('applications.form.campus', { campus: campusName })}</p>
          ) : (
            <span />
          )}
          {!paid && (
            <DiscardDraftButton
              applicationId={draft.id}
              partnerId={draft.partner_id}
              partnerName={draft.partner_name}
              programName={draft.program_name}
              onDiscarded={autosave.discardLocal}
            />
          )}
        </div>
      </header>

      <nav aria-label={t('applications.steps.label')}>
        <ol className="flex flex-wrap gap-2">
          {stepNames.map((name, index) => {
            const step = APPLICATION_STEPS.indexOf(name);
            const current = position.step === step;
            return (
              <li key={name}>
                <button
                  type="button"
                  aria-current={current ? 'step' : undefined}
                  className={`rounded-full border px-3 py-1.5 text-sm font-medium ${current ? 'border-brand bg-brand text-on-brand' : 'border-border bg-surface'}`}
                  onClick={() => go({ step, section: position.section })}
                >
                  {t('applications.steps.numbered', { number: index + 1, step: t(`applications.steps.${name}`) })}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <div className="flex min-w-0 flex-col gap-4">
        <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold break-words outline-none">
          {stepTitle}
        </h2>

        {position.step === FORM && section && (
          <>
            {!campusId && draft.campuses.length > 0 && (
              <fieldset className="flex min-w-0 flex-col gap-2 rounded-xl border border-border bg-surface p-4">
                <legend className="font-semibold">{t('applications.start.campus')}</legend>
                {draft.campuses.map((campus) => (
                  <label key={campus.id} className="flex min-h-11 items-center gap-3">
                    <input
                      type="radio"
                      name="campus"
                      className="size-5 shrink-0 accent-brand"
                      checked={false}
                      onChange={() => chooseCampus(campus.id)}
                    />
                    <span className="break-words">
                      {campus.name} — {campus.city}
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
            {listedIssues.length > 0 && (
              <div role="alert" className="flex flex-col gap-2 rounded-xl border border-danger bg-surface p-4">
                <h3 className="font-semibold">{t('applications.form.issues', { count: listedIssues.length })}</h3>
                <ul className="flex list-disc flex-col gap-1 ps-5">
                  {listedIssues.map(({ index, question, message }) => (
                    <li key={question.id} className="break-words">
                      <button type="button" className="link text-start" onClick={() => controlAt(index)?.focus()}>
                        {localized(question.label, language)}
                      </button>
                      {' — '}
                      {translate(message)}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <div ref={questions}>
              <ApplicationFormView
                sections={[section]}
                language={language}
                values={autosave.answers}
                errors={fieldIssues}
                onChange={setAnswer}
                documents={documents}
                renderReferees={(question) => (
                  <RefereesQuestionAnswer
                    applicationId={draft.id}
                    question={question}
                    value={autosave.answers[question.id]}
                    editable={draft.status === 'in_progress'}
                    online={online}
                    onChange={(ids) => setAnswer(question.id, ids)}
                  />
                )}
              />
            </div>
            {fileQuestions.map((question) =>
              question.type === 'file' ? (
                <div key={question.id} className="flex flex-col gap-1">
                  <p className="text-sm text-muted">{localized(question.label, language)}</p>
                  <DocumentUpload
                    type={question.document_type}
                    onUploaded={(type) => void uploaded(type, question.id)}
                  />
                </div>
              ) : null,
            )}
            <div className="flex flex-wrap justify-between gap-2">
              <button
                type="button"
                className="btn-secondary"
                disabled={position.section === 0}
                onClick={() => go({ step: FORM, section: position.section - 1 })}
              >
                {t('applications.form.previous')}
              </button>
              <button type="button" className="btn-primary" onClick={leaveSection}>
                {position.section < sections.length - 1
                  ? t('applications.form.next')
                  : t(feeDue ? 'applications.form.to_payment' : 'applications.form.to_review')}
              </button>
            </div>
          </>
        )}

        {position.step === PAYMENT && (
          <PaymentStep
            draft={draft}
            online={online}
            beforeLeaving={() => autosave.moveTo({ current_step: PAYMENT, current_section_index: position.section })}
            onContinue={() => go({ step: REVIEW, section: position.section })}
            onRefresh={refreshPayment}
          />
        )}
        {position.step === PAYMENT && (
          <FeeWaiverSlot
            applicationId={draft.id}
            documents={draft.documents}
            paid={draft.payment?.status === 'succeeded'}
            onContinue={() => go({ step: REVIEW, section: position.section })}
          />
        )}

        {position.step === REVIEW && (
          <ReviewStep
            sections={sections}
            answers={autosave.answers}
            language={language}
            documents={documents}
            issues={issues}
            blockers={blockers}
            submitting={submit.isPending}
            online={online}
            error={submitError}
            onEdit={(index, questionId) => {
              const at = sections[index]?.questions.findIndex((question) => question.id === questionId) ?? -1;
              focusQuestion.current = at >= 0 ? at : null;
              // Sent to an answer that needs attention, the student sees why next to it.
              if (questionId) setChecked((previous) => new Set(previous).add(index));
              go({ step: FORM, section: index });
            }}
            onSubmit={() => setConfirming(true)}
            eligibility={eligibility.data?.find((entry) => entry.program_id === draft.program_id)?.eligibility ?? null}
          />
        )}
      </div>

      {confirming && (
        <ConfirmDialog
          tone="primary"
          title={t('applications.review.confirm_title')}
          description={[
            // Submit is offered only once a campus is chosen (a blocker otherwise).
            t('applications.review.confirm_text', {
              partner: draft.partner_name,
              program: draft.program_name,
              campus: campusName,
            }),
            feeDue
              ? t('applications.review.confirm_fee', { amount: format.money(draft.fee.amount, draft.fee.currency) })
              : t('applications.review.confirm_no_fee'),
          ].join(' ')}
          confirmLabel={t('applications.review.confirm')}
          cancelLabel={t('applications.review.confirm_cancel')}
          pending={submit.isPending}
          onConfirm={() => {
            setConfirming(false);
            void sendSubmission();
          }}
          onClose={() => setConfirming(false)}
        />
      )}

      {autosave.conflict && (
        <ConflictDialog
          sections={sections}
          language={language}
          mine={autosave.answers}
          documents={documents}
          saved={saved}
          busy={resolving}
          onResolve={(answers, version) => {
            // The saved side may name documents uploaded on the other device.
            if (saved) setDocuments([...saved.documents]);
            void autosave.resolve(answers, version);
          }}
          onLoadNewer={() => {
            setResolving(true);
            autosave.discardLocal();
            void onReload();
          }}
        />
      )}
    </ViewFrame>
  );
}
