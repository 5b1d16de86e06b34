/** The cycles module's public entry: what other modules may use (docs/architecture.md). */
export { listCycles } from './cycles.service.ts';
