/** The settings module's public entry: what other modules may use (docs/architecture.md). */
export { readPreferences, readPreferencesOf, unsubscribeMarketing } from './preferences.ts';
export type { Preferences } from './preferences.ts';
