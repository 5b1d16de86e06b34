/** The eligibility module's public entry: what other modules may use (docs/architecture.md). */
export {
  eligibilityDecision,
  eligibilityOfSubmission,
  programEligibility,
  institutionsMetBy,
  offerConditionViews,
  sittingsForEligibility,
  type ProgramRequirements,
} from './eligibility.service.ts';
