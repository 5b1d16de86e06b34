/** The programs module's public entry: what other modules may use (docs/architecture.md). */
export { assertProgramsOfPartner, listCampuses, listPrograms } from './programs.service.ts';
