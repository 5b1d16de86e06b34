/** The students module's public entry: what other modules may use (docs/architecture.md). */
export { findStudent, readProfile, refreshProfileCompletion, setProfilePicture } from './students.service.ts';
