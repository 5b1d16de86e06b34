/** The partner-settings module's public entry: what other modules may use (docs/architecture.md). */
export {
  assertCycleOfPartner,
  createDefaultSettings,
  cycleSettings,
  getSettings,
  hashApiKey,
  stampApiKeyUse,
  storedSettings,
} from './partner-settings.service.ts';
