/**
 * The instance's own "stop sending me requests": switched on when it is asked to shut down, so /ready
 * answers 503 while in-flight and still-arriving requests are served, and the load balancer polling it
 * takes the instance out before its port closes.
 */
export interface DrainSwitch {
  readonly draining: boolean;
  start(): void;
}

export function drainSwitch(): DrainSwitch {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    start() {
      draining = true;
    },
  };
}
