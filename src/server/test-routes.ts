/**
 * The test-only routes, served under /__zoneplan: the core ones (health, loading fixtures) and
 * every area's `testRoutes`. Who may call them is decided before routing (http/guards.ts): they
 * are off unless the server starts with `testRoutes`, and then need the admin credential, except
 * `GET /health`, which reveals nothing.
 */
import type { App } from './app.js';
import type { AreaModule } from './area.js';
import { loadFixtures } from './fixtures/load.js';
import { FixtureError, sourceFromObject } from './fixtures/source.js';
import { ApiError, ok } from './http/envelope.js';
import type { Router } from './http/router.js';

export function addTestRoutes(router: Router, app: App, areas: readonly AreaModule[]): void {
  for (const a of areas) a.testRoutes?.(router, app);
  router.add({ method: 'GET', path: '/health', area: 'public', handler: () => ok({ ok: true }) });
  router.add({
    method: 'POST',
    path: '/fixtures',
    area: 'public',
    handler: (ctx) => {
      try {
        return ok(loadFixtures(app, sourceFromObject(ctx.body ?? {}, 'POST /__zoneplan/fixtures')));
      } catch (err) {
        // a bad document is the caller's mistake: a 400 that names the place, as `--fixtures` says it
        if (err instanceof FixtureError) throw ApiError.badRequest(err.message);
        throw err;
      }
    },
  });
}
