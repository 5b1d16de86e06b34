import { AdminDashboardPage } from '../features/admin/components/admin-dashboard-page.tsx';
import { AnnouncementSection } from '../features/notifications/components/announcement-section.tsx';

/** The admin dashboard with the announcements tab, which notifications owns. */
export function AdminDashboard() {
  return <AdminDashboardPage announcements={<AnnouncementSection />} />;
}
