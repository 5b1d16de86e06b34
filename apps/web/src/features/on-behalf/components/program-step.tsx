import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { APPLICATION_MESSAGES, type ApplyProgram, type OnBehalfSetup } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { SelectField } from '../../../components/form/field.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useOnBehalfSetup } from '../api/get-setup.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

export interface ProgramChoice {
  program: ApplyProgram;
  campus: ApplyProgram['campuses'][number];
  cycleName: string;
}

/** Step 2: a program open in the current cycle, and one of the campuses offering it. */
export function ProgramStep({
  partnerId,
  initial,
  onBack,
  onDone,
}: {
  partnerId: string;
  initial: ProgramChoice | null;
  onBack: () => void;
  onDone: (choice: ProgramChoice) => void;
}) {
  const { t } = useTranslation();
  const setup = useOnBehalfSetup(partnerId);
  const back = (
    <button type="button" className="btn-secondary" onClick={onBack}>
      {t('on_behalf.back')}
    </button>
  );

  if (setup.isPending) return <Spinner />;
  if (setup.isError) {
    return (
      <div className="flex flex-col items-start gap-4">
        <LoadError error={setup.error} retryLabel={t('on_behalf.retry')} onRetry={() => void setup.refetch()} />
        {back}
      </div>
    );
  }
  const closed = whyClosed(setup.data);
  if (closed) {
    return (
      <div className="flex flex-col items-start gap-4">
        <ClosedState reason={closed} setup={setup.data} />
        {back}
      </div>
    );
  }
  return <ProgramForm setup={setup.data} initial={initial} back={back} onDone={onDone} />;
}

type Closed = 'no_cycle' | 'closed' | 'no_programs';

function whyClosed(setup: OnBehalfSetup): Closed | null {
  if (!setup.cycle) return 'no_cycle';
  if (!setup.cycle.accepting_applications) return 'closed';
  if (setup.programs.length === 0) return 'no_programs';
  return null;
}

/** Why nothing can be submitted today, and where an administrator fixes it. */
function ClosedState({ reason, setup }: { reason: Closed; setup: OnBehalfSetup }) {
  const { t, i18n } = useTranslation();
  const p = (key: string, values: Record<string, string> = {}) => t(`on_behalf.program.${key}`, values);
  const date = dateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'long', timeZone: 'UTC' });
  const day = (iso: string) => date.format(new Date(`${iso}T00:00:00Z`));
  const text =
    reason === 'closed' && setup.cycle
      ? p('closed', { name: setup.cycle.name, opens: day(setup.cycle.opens_on), closes: day(setup.cycle.closes_on) })
      : p(reason);
  return (
    <EmptyState
      title={p(`${reason}_title`)}
      text={text}
      action={
        <Link to={reason === 'no_programs' ? paths.partner.programs : paths.partner.cycles} className="btn-primary">
          {reason === 'no_programs' ? t('shell.partner.programs') : p('open_cycles')}
        </Link>
      }
    />
  );
}

function ProgramForm({
  setup,
  initial,
  back,
  onDone,
}: {
  setup: OnBehalfSetup;
  initial: ProgramChoice | null;
  back: React.ReactNode;
  onDone: (choice: ProgramChoice) => void;
}) {
  const { t } = useTranslation();
  const p = (key: string) => t(`on_behalf.program.${key}`);
  const [programId, setProgramId] = useState(initial?.program.id ?? '');
  const [campusId, setCampusId] = useState(initial?.campus.id ?? '');
  const [errors, setErrors] = useState<{ program?: string; campus?: string }>({});
  const program = setup.programs.find((candidate) => candidate.id === programId);
  const campus = program?.campuses.find((candidate) => candidate.id === campusId);

  const choose = (id: string) => {
    setProgramId(id);
    const campuses = setup.programs.find((candidate) => candidate.id === id)?.campuses ?? [];
    // A program taught at one campus leaves nothing to choose; otherwise the previous campus stays if offered.
    setCampusId(
      campuses.length === 1 ? (campuses[0]?.id ?? '') : campuses.some((c) => c.id === campusId) ? campusId : '',
    );
    setErrors({});
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!program) return setErrors({ program: p('choose_program') });
        if (!campus) return setErrors({ campus: APPLICATION_MESSAGES.campus_required });
        onDone({ program, campus, cycleName: setup.cycle?.name ?? '' });
      }}
    >
      {setup.cycle && <p className="text-muted">{t('on_behalf.program.cycle', { name: setup.cycle.name })}</p>}
      <SelectField
        label={p('program')}
        placeholder={p('choose_program')}
        value={programId}
        error={errors.program}
        options={setup.programs.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
        onChange={(event) => choose(event.target.value)}
      />
      <SelectField
        label={p('campus')}
        placeholder={p('choose_campus')}
        hint={program ? undefined : p('choose_program_first')}
        value={campusId}
        disabled={!program}
        error={errors.campus}
        options={(program?.campuses ?? []).map((candidate) => ({
          value: candidate.id,
          label: `${candidate.name} (${candidate.city})`,
        }))}
        onChange={(event) => {
          setCampusId(event.target.value);
          setErrors({});
        }}
      />
      <div className="flex flex-wrap justify-between gap-2">
        {back}
        <button type="submit" className="btn-primary">
          {t('on_behalf.continue')}
        </button>
      </div>
    </form>
  );
}
