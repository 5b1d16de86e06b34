import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Loads the lazy screens matching `location` and stores them on the route objects, so the first
 * client render produces the same markup as the prerendered HTML and hydration can reuse it.
 */
export async function resolveLazyRoutes(routes: RouteObject[], location: Location | string): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved, { lazy: undefined });
    }),
  );
}
