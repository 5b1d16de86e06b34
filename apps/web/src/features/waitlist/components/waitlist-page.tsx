import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { JoinWaitlistSchema } from '@kaminuza/shared';
import { EmailField, FormAlert } from '../../../components/form/field.tsx';
import { isLanguage } from '../../../lib/languages.ts';
import { paths } from '../../../lib/paths.ts';
import { JoinLinks } from '../../../components/account-links.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useJoinWaitlist } from '../api/join-waitlist.ts';

const WaitlistFormSchema = JoinWaitlistSchema.pick({ email: true });

export function WaitlistPage() {
  const { t, i18n } = useTranslation();
  const join = useJoinWaitlist();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string }>({ resolver: zodResolver(WaitlistFormSchema) });

  const onSubmit = handleSubmit(({ email }) =>
    join.mutate({
      email,
      // The query string the visitor arrived with (e.g. a referral code from /signup?ref=…) is kept.
      query: window.location.search.replace(/^\?/, ''),
      language: isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en',
    }),
  );

  return (
    <section className="prose-page py-12 sm:py-16">
      <h1 className="text-3xl font-bold sm:text-4xl">{t('waitlist.title')}</h1>
      <p className="mt-3 text-muted">{t('waitlist.intro')}</p>
      {join.isSuccess ? (
        <>
          <p role="status" className="mt-8 rounded-xl border border-border bg-surface p-4 font-medium">
            {t(join.data.already_joined ? 'waitlist.already' : 'waitlist.success', { email: join.data.email })}
          </p>
          <p className="mt-6">{t('waitlist.ready_now')}</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <JoinLinks />
          </div>
        </>
      ) : (
        <form
          noValidate
          onSubmit={onSubmit}
          className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-surface p-5"
        >
          <EmailField error={errors.email?.message} {...register('email')} />
          {join.isError && <FormAlert>{t(errorMessageKey(join.error))}</FormAlert>}
          <button type="submit" className="btn-primary self-start" disabled={join.isPending}>
            {join.isPending ? t('waitlist.submitting') : t('waitlist.submit')}
          </button>
          <p className="text-sm text-muted">
            <Link to={paths.privacy} className="link">
              {t('waitlist.privacy_note')}
            </Link>
          </p>
        </form>
      )}
    </section>
  );
}
