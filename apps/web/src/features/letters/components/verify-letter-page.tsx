import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { VerificationCodeParamsSchema, type LetterVerification } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import {
  GenuineDocument,
  normaliseVerificationCode,
  VerificationPage,
} from '../../../components/verification-page.tsx';
import { useLetterVerification } from '../api/verify-letter.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** A code as the letter prints it (groups of four), from what a person typed: any case, with or without dashes. */
export const normaliseCode = (input: string) => normaliseVerificationCode(input, VerificationCodeParamsSchema);

function Genuine({ letter, code }: { letter: LetterVerification; code: string }) {
  const { t, i18n } = useTranslation();
  const issued = dateTimeFormat(i18n.resolvedLanguage ?? i18n.language, {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${letter.issued_on}T00:00:00Z`));
  return (
    <GenuineDocument
      title={t('decisions.verify.genuine')}
      lead={t('decisions.verify.genuine_lead')}
      facts={[
        [t('decisions.verify.student'), letter.student_name],
        [t('decisions.verify.university'), letter.university_name],
        [t('decisions.verify.program'), letter.program_name],
        [t('decisions.verify.decision'), t(`decisions.view.states.${letter.state}`)],
        [t('decisions.verify.issued_on'), issued],
      ]}
      footer={`${t('decisions.verify.code', { code })} · ${t('decisions.verify.limited')}`}
    />
  );
}

/**
 * /letters/{code}: the public check of an admission letter, opened by its QR code. It confirms the
 * letter is genuine and shows no more than the name, the institution, the program and the decision.
 */
export function VerifyLetterPage() {
  const { t } = useTranslation();
  const { code: raw = '' } = useParams();
  const code = normaliseCode(raw);
  const query = useLetterVerification(code);
  return (
    <VerificationPage
      raw={raw}
      code={code}
      query={query}
      normalise={normaliseCode}
      pathOf={paths.letter}
      texts={{
        title: t('decisions.verify.title'),
        notFoundTitle: t('decisions.verify.not_found_title'),
        notFound: t('decisions.errors.letter_not_found'),
        notFoundHint: t('decisions.verify.not_found_hint'),
        retry: t('decisions.verify.retry'),
        codeLabel: t('decisions.verify.code_label'),
        codeHelp: t('decisions.verify.code_help'),
        check: t('decisions.verify.check'),
      }}
    >
      {(letter, checked) => <Genuine letter={letter} code={checked} />}
    </VerificationPage>
  );
}
