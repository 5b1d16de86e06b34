import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';

/** The student's home. It greets them by the name they prefer, above what the app composes in. */
export function HomePage({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const name = user?.preferred_name || user?.first_name;
  return (
    <section className="mx-auto max-w-4xl">
      <h1 className="text-3xl font-bold tracking-tight">
        {name ? t('auth.home.greeting', { name }) : t('auth.home.greeting_anonymous')}
      </h1>
      <p className="mt-4">
        <Link to={paths.student.profile} className="link">
          {t('auth.home.profile_link')}
        </Link>
      </p>
      {children}
    </section>
  );
}
