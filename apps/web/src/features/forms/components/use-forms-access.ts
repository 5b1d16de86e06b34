import { holdsPermission } from '@kaminuza/shared';
import { useSession } from '../../../lib/session.tsx';
import { useCycles } from '../api/get-cycles.ts';
import { usePrograms } from '../api/get-programs.ts';

/** The member's institution and whether they may build its forms (the server checks again). */
export function useFormsAccess() {
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  return {
    partnerId: user?.partner_id ?? '',
    canManage: holdsPermission(user?.staff_permissions, 'manage_forms'),
  };
}

/** Cycle and program choices; until the institution has them (or they cannot load) a form stays unattached. */
export function useAttachmentChoices(partnerId: string) {
  const cycles = useCycles(partnerId);
  const programs = usePrograms(partnerId);
  return {
    cycles: (cycles.data ?? []).map((cycle) => ({ value: cycle.id, label: cycle.name })),
    programs: (programs.data ?? []).map((program) => ({ value: program.id, label: program.name })),
    failed: cycles.isError || programs.isError,
  };
}
