/** The uploads module's public entry: what other modules may use (docs/architecture.md). */
export { sniffMimeType } from './sniff.ts';
