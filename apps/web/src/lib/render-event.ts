import { RENDER_EVENT_DELAY_MS, RENDER_EVENT_NAME } from '@kaminuza/shared/constants';

/** The spec's render event, fired 100 ms after the app starts (used by tools that wait for a paint). */
export function scheduleRenderEvent(): void {
  setTimeout(() => window.dispatchEvent(new Event(RENDER_EVENT_NAME)), RENDER_EVENT_DELAY_MS);
}
