import type { UserType } from '@kaminuza/shared';
import { paths } from '../../../app/paths.ts';

/** Where each kind of user lands after signing in. */
export function homeOf(type: UserType): string {
  if (type === 'admin') return paths.admin.dashboard;
  if (type === 'staff') return paths.partner.dashboard;
  return paths.student.home;
}
