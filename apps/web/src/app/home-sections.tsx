import { HomeOverview } from '../features/applications/components/home-overview.tsx';
import { HomeDashboard } from '../features/home/components/home-dashboard.tsx';

/** What the home shows below the greeting: next steps, completion and shortcuts, then the applications. */
export function HomeSections() {
  return (
    <>
      <HomeDashboard />
      <HomeOverview />
    </>
  );
}
