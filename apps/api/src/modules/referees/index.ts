/** The referees module's public entry: what other modules may use (docs/architecture.md). */
export {
  invitedRefereesOf,
  letterKeysOf,
  lettersColumns,
  refereeAnswers,
  refereeQuestions,
  refereesOfSubmission,
  staffLetter,
} from './referees.service.ts';
export type { InvitedReferee } from './referees.service.ts';
