import type { preHandlerAsyncHookHandler } from 'fastify';
import type { StaffPermission } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { requireUserType } from '../auth/index.ts';
import { AppError } from '../../lib/errors.ts';
import { assertStaffAccess, type StaffCaller } from './partners.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by staffGuard: the calling member of the institution named in the path. */
    staff?: StaffCaller;
  }
}

const requireStaff = requireUserType('staff');

/**
 * The gate of every `/partners/:partnerId/...` route of the dashboard: a signed-in staff member of that
 * institution (another institution's id answers 404), approved and active, holding one of
 * `permissions` ('all' holds all; null means any member may). Sets `request.staff`.
 */
export function staffGuard(db: Db, permissions: readonly StaffPermission[] | null): preHandlerAsyncHookHandler {
  return async function staffOfInstitution(request, reply) {
    await requireStaff.call(this, request, reply);
    const { partnerId } = request.params as { partnerId?: string };
    if (!partnerId) throw new AppError('NOT_FOUND');
    request.staff = await assertStaffAccess(db, request.user!.id, partnerId, permissions);
  };
}
