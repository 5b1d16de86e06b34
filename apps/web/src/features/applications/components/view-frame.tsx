import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PartnerTheme } from '@kaminuza/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { institutionThemeProps } from '../../../components/institution-theme.ts';
import { notFoundPath, type ApplicationArea } from './application-routes.ts';

/**
 * A view of the applying flow. An institution with a theme marks it as its own with a rule in its colour
 * along the top, and its branded elements inside (the start screen's band, its name) take its colours;
 * the rest keeps the app's look in the reader's light or dark mode (ADR 029).
 */
export function ViewFrame({
  theme,
  children,
  wide = false,
}: {
  theme?: PartnerTheme | null;
  children: ReactNode;
  wide?: boolean;
}) {
  const { className: themeClass, ...themeProps } = institutionThemeProps(theme);
  return (
    <section
      {...themeProps}
      className={`mx-auto flex w-full min-w-0 ${wide ? 'max-w-4xl' : 'max-w-3xl'} flex-col gap-6 ${theme ? `border-t-4 border-institution pt-4 ${themeClass}` : ''}`}
    >
      {children}
    </section>
  );
}

/**
 * The loading and failure states of a query a view needs: a spinner, the not-found view for a 404,
 * else the error with a retry. Renders `children` once the data is there.
 */
export function QueryState({
  area,
  partnerId,
  query,
  children,
}: {
  area: ApplicationArea;
  partnerId: string | null;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  children: () => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Spinner />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 'NOT_FOUND') {
      return <Navigate replace to={notFoundPath(area, partnerId)} />;
    }
    return (
      <ViewFrame>
        <LoadError error={query.error} retryLabel={t('applications.retry')} onRetry={() => void query.refetch()} />
      </ViewFrame>
    );
  }
  return <>{children()}</>;
}
