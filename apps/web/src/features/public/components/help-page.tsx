import { useTranslation } from 'react-i18next';
import { EMAILS } from './contact-addresses.ts';
import { InfoPage, InfoSection, MailLink } from './page-parts.tsx';

const FAQ = [
  ['getting_started', ['what', 'account', 'verify', 'language']],
  ['applications', ['documents', 'several', 'save', 'fee', 'submitted']],
  ['decisions', ['meaning', 'respond']],
  ['account', ['password', 'data']],
] as const;

export function HelpPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.help' });
  const { t: tRoot } = useTranslation();
  return (
    <InfoPage title={t('title')} intro={t('intro')}>
      {FAQ.map(([group, questions]) => (
        <InfoSection key={group} title={t(`faq.${group}.title`)}>
          <div className="divide-y divide-border rounded-xl border border-border bg-surface">
            {questions.map((question) => (
              <details key={question} className="group p-4">
                <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 font-semibold [&::-webkit-details-marker]:hidden">
                  <span className="min-w-0">{t(`faq.${group}.${question}.q`)}</span>
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 20 20"
                    className="size-5 shrink-0 fill-none stroke-current text-brand transition-transform group-open:rotate-180"
                    strokeWidth="2"
                  >
                    <path d="m5 8 5 5 5-5" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </summary>
                <p className="mt-2 text-muted break-words">
                  {t(`faq.${group}.${question}.a`, { email: EMAILS.privacy })}
                </p>
              </details>
            ))}
          </div>
        </InfoSection>
      ))}
      <InfoSection title={t('support.title')}>
        <p>{tRoot('footer.support_hours')}</p>
        <p>{t('support.chat')}</p>
        <p>
          {t('support.email')} <MailLink address={EMAILS.support} />
        </p>
        <p className="text-muted">{t('support.reference_tip')}</p>
      </InfoSection>
    </InfoPage>
  );
}
