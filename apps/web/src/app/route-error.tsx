import { useRouteError } from 'react-router';
import { ErrorScreen } from '../components/error-screen.tsx';

export function RouteError() {
  return <ErrorScreen error={useRouteError()} />;
}
