/**
 * The local API's route table, read from the server's own registry (every area's `routes()`), so a
 * route added later is covered by the security and bad-input tests without anyone editing them.
 * Also the concrete path of each route for a test: zone and account parameters filled in, other ids
 * given a well-formed value that names nothing.
 */
import type { App } from '../../src/server/app.js';
import { AREA_MODULES } from '../../src/server/areas/index.js';
import { PermissionAreas } from '../../src/server/auth/permission-areas.js';
import { Router, type RouteSpec } from '../../src/server/http/router.js';
import { addTestRoutes } from '../../src/server/test-routes.js';

export interface RouteInfo {
  method: RouteSpec['method'];
  path: string;
  area: RouteSpec['area'];
  access: 'read' | 'edit';
  /** e-mail/key pairs are refused (a token-only area or route) */
  tokenOnly: boolean;
  scope: 'zone' | 'account' | 'none';
}

/** Registers every area's routes on a router that also records them (routes() only registers). */
export function routeTable(app: App): RouteInfo[] {
  const specs: RouteSpec[] = [];
  class Recorder extends Router {
    override add(spec: RouteSpec): void {
      specs.push(spec);
      super.add(spec);
    }
  }
  const areas = new PermissionAreas(AREA_MODULES);
  const rec = new Recorder(areas);
  for (const area of AREA_MODULES) area.routes?.(rec, app);
  return specs.map((s) => ({
    method: s.method,
    path: s.path,
    area: s.area,
    access: s.access ?? (s.method === 'GET' ? 'read' : 'edit'),
    tokenOnly: s.tokenOnly === true || (s.area !== 'public' && s.area !== 'any' && areas.isTokenOnly(s.area)),
    scope: s.path.includes(':zone_id') ? 'zone' : s.path.includes(':account_id') ? 'account' : 'none',
  }));
}

/** The test-only routes (below /__zoneplan), read from the server's own registration. */
export function testRouteTable(app: App): { method: RouteSpec['method']; path: string }[] {
  const specs: RouteSpec[] = [];
  class Recorder extends Router {
    override add(spec: RouteSpec): void {
      specs.push(spec);
      super.add(spec);
    }
  }
  addTestRoutes(new Recorder(), app, AREA_MODULES);
  return specs.map((s) => ({ method: s.method, path: s.path }));
}

/** A well-formed id for a parameter that should name nothing (so the handler answers 404, not 400). */
function placeholder(param: string): string {
  if (param === 'job_id') return '987654';
  if (param === 'ruleset_phase') return 'http_request_firewall_managed';
  return 'fedcba9876543210fedcba9876543210';
}

/** The route's path with its parameters filled: `ids.zone` / `ids.account` and placeholders. */
export function concretePath(
  route: Pick<RouteInfo, 'path'>,
  ids: { zone?: string; account?: string },
): string {
  return route.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    if (name === 'zone_id') return ids.zone ?? placeholder(name);
    if (name === 'account_id') return ids.account ?? placeholder(name);
    return placeholder(name);
  });
}

export const routeName = (r: RouteInfo) => `${r.method} ${r.path}`;
