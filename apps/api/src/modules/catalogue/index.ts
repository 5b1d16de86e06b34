/** The catalogue module's public entry: what other modules may use (docs/architecture.md). */
export {
  applicationForm,
  applicationsOpen,
  applyCycle,
  chosenCampus,
  feeOf,
  openCurrentCycle,
  openProgram,
  openPrograms,
  orderedSections,
  visiblePartner,
} from './apply-setup.service.ts';
