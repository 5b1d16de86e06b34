import type { MouseEventHandler } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession, type Session } from '../lib/session.tsx';
import { homeOf, paths } from '../lib/paths.ts';

/*
 * The ways in (sign in, sign up) for a visitor, or the way back to their own area for someone signed in.
 * A public page is prerendered once for everyone, so its HTML holds both: the signed-out links showing,
 * the dashboard link `hidden`. In the app the session decides once it is read — never in the server's
 * render or the first render in the browser, where it is still loading, so hydration matches. On a
 * static page the enhancement module reads the session and flips the same `data-account` marks
 * (public-entry.ts). Without JavaScript the signed-out links are plain links that work.
 */

/** Where a signed-in user's own area starts, or null while signed out or not yet known. */
function homeFor(session: Session): string | null {
  return session.status === 'signed-in' ? homeOf(session.user.type) : null;
}

/** Get started, for the header's menu on a phone (the bar has room only for Sign in there). */
export function MenuGetStarted({ onNavigate }: { onNavigate?: MouseEventHandler<HTMLElement> }) {
  const { t } = useTranslation();
  const home = homeFor(useSession().session);
  return (
    <Link
      to={paths.signupLive}
      data-account="signed-out"
      hidden={home !== null}
      onClick={onNavigate}
      className="btn-primary"
    >
      {t('nav.get_started')}
    </Link>
  );
}

/**
 * On a phone the header's bar holds the logo, this link and the menu: a longer label takes two lines.
 * Wider, the buttons keep their label on one line and the navigation's links wrap instead.
 */
const COMPACT = 'px-3 leading-tight sm:px-4 sm:leading-normal sm:whitespace-nowrap';

/** The header's links: Sign in and Get started, or Go to my dashboard. */
export function HeaderAccountLinks({ onNavigate }: { onNavigate?: MouseEventHandler<HTMLElement> }) {
  const { t } = useTranslation();
  const { session } = useSession();
  const home = homeFor(session);
  return (
    // data-session tells scripts and tests when the session has been read ("loading" until then).
    <div data-session={session.status} className="flex items-center gap-2">
      <div data-account="signed-out" hidden={home !== null} className="flex items-center gap-2">
        <Link to={paths.login} onClick={onNavigate} className={`btn-secondary ${COMPACT}`}>
          {t('nav.sign_in')}
        </Link>
        <Link
          to={paths.signupLive}
          onClick={onNavigate}
          className="btn-primary hidden whitespace-nowrap sm:inline-flex"
        >
          {t('nav.get_started')}
        </Link>
      </div>
      <DashboardLink home={home} onNavigate={onNavigate} className={COMPACT} />
    </div>
  );
}

/**
 * The calls of a public page: create an applicant account and register an institution (the one the
 * page speaks to first and in the primary style), or the dashboard.
 */
export function JoinLinks({ first = 'applicant' }: { first?: 'applicant' | 'institution' }) {
  const { t } = useTranslation();
  const home = homeFor(useSession().session);
  const calls = [
    { key: 'applicant', to: paths.signupLive, label: t('nav.join_applicant') },
    { key: 'institution', to: paths.partnerSignup, label: t('nav.join_institution') },
  ];
  if (first === 'institution') calls.reverse();
  return (
    <>
      <div data-account="signed-out" hidden={home !== null} className="flex flex-wrap gap-3">
        {calls.map((call, index) => (
          <Link key={call.key} to={call.to} className={index === 0 ? 'btn-primary' : 'btn-secondary'}>
            {call.label}
          </Link>
        ))}
      </div>
      <DashboardLink home={home} />
    </>
  );
}

function DashboardLink({
  home,
  onNavigate,
  className = '',
}: {
  home: string | null;
  onNavigate?: MouseEventHandler<HTMLElement>;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    // Until the session is known it points at the student home; the static pages' module sets the real one.
    <Link
      to={home ?? paths.student.home}
      data-account="signed-in"
      hidden={home === null}
      onClick={onNavigate}
      className={`btn-primary ${className}`}
    >
      {t('nav.dashboard')}
    </Link>
  );
}
