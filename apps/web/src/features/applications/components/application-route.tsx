import { useParams, useSearchParams } from 'react-router';
import { resolveApplicationRoute, type ApplicationArea } from './application-routes.ts';
import { ApplicationsPage } from './applications-page.tsx';
import { ClosedView } from './closed-view.tsx';
import { DecisionView } from './decision-view.tsx';
import { FormScreen } from './form-screen.tsx';
import { NotFoundView } from './not-found-view.tsx';
import { StartScreen } from './start-screen.tsx';
import { SubmittedView } from './submitted-view.tsx';

function ApplicationViews({
  area,
  partnerId,
  rest,
}: {
  area: ApplicationArea;
  partnerId: string | null;
  rest: string;
}) {
  const resolved = resolveApplicationRoute(area, partnerId, rest);
  const id = resolved.partnerId;
  if (id === null) return <NotFoundView />;
  switch (resolved.view) {
    case 'start':
      return <StartScreen partnerId={id} />;
    case 'form':
      return <FormScreen key={id} area={area} partnerId={id} />;
    case 'submitted':
      return <SubmittedView area={area} partnerId={id} />;
    case 'decision':
      return <DecisionView area={area} partnerId={id} />;
    case 'closed':
      return <ClosedView area={area} partnerId={id} />;
    case 'not-found':
      return <NotFoundView />;
  }
}

/**
 * /partners/{partnerId}/… beyond the university page and its chat: the application (its start screen and
 * views); any other subpath is the not-found view.
 */
export function PartnerApplicationRoute() {
  const { partnerId = null, '*': splat = '' } = useParams();
  const [first, ...rest] = splat.split('/');
  if (first !== 'application') return <NotFoundView />;
  return <ApplicationViews area="partner" partnerId={partnerId} rest={rest.join('/')} />;
}

/** /application: the applications area; /application/{view}?partner={id}: the views, reached from it. */
export function AreaApplicationRoute() {
  const { '*': splat = '' } = useParams();
  const [params] = useSearchParams();
  if (splat.replace(/\/+$/, '') === '') return <ApplicationsPage />;
  return <ApplicationViews area="area" partnerId={params.get('partner')} rest={splat} />;
}
