/** The eligibility module's public entry: what other modules may use (docs/architecture.md). */
export { pointsOf, programEligibility, sittingsForEligibility, type ProgramRequirements } from './eligibility.service.ts';
