/** The partners module's public entry: what other modules may use (docs/architecture.md). */
export {
  activeStaffHolding,
  createInstitution,
  decidePendingInstitution,
  getProfile,
  joinableInstitution,
  membersHolding,
  searchInstitutions,
  setProgramCount,
} from './partners.service.ts';
export type { StaffCaller } from './partners.service.ts';
export { staffGuard } from './staff-guard.ts';
