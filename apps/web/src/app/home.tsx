import { HomeOverview } from '../features/applications/components/home-overview.tsx';
import { HomePage } from '../features/home/components/home-page.tsx';

/** The student's home with where each of their applications stands. */
export function Home() {
  return (
    <HomePage>
      <HomeOverview />
    </HomePage>
  );
}
