import { holdsPermission } from '@kaminuza/shared';
import { useSession } from '../../../lib/session.tsx';

/** The signed-in member's institution and whether they may change its programs and campuses. */
export function useProgramsAccess() {
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  return {
    partnerId: user?.partner_id ?? '',
    canEdit: holdsPermission(user?.staff_permissions, 'manage_programs'),
  };
}
