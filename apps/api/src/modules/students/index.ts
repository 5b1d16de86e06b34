/** The students module's public entry: what other modules may use (docs/architecture.md). */
export { findStudent, readProfile, refreshProfileCompletion, setProfilePicture } from './students.service.ts';
export { sittingsOf } from './exam-sittings.read.ts';
export { verifySitting } from './exam-sittings.service.ts';
