/**
 * The extension point of the local API: one AreaModule per area (zones, dns, page_shield, ...),
 * each in its own folder under src/server/areas/ and listed once in src/server/areas/index.ts.
 * See src/server/ARCHITECTURE.md for a worked example.
 */
import type { App } from './app.js';
import type { PermissionArea } from './auth/permission-areas.js';
import type { Router } from './http/router.js';
import type { AccountRow, ZoneRow } from './store/core.js';

/** A location inside the fixtures document, e.g. ['zones', 0, 'records', 3]. */
export type FixturePath = (string | number)[];

export interface FixtureContext {
  app: App;
  /** Throws a fixtures error that names the file, line and path: `fixtures.yaml:12:7: zones[0].plan: ...`. */
  fail(path: FixturePath, message: string): never;
  /** A zone by id or name (case-insensitive), as loaded so far. */
  zone(ref: string): ZoneRow | undefined;
  /** An account by id or name, as loaded so far. */
  account(ref: string): AccountRow | undefined;
}

export type TopFixtureLoader = (value: unknown, path: FixturePath, ctx: FixtureContext) => void;
export type ZoneFixtureLoader = (
  value: unknown,
  zone: ZoneRow,
  path: FixturePath,
  ctx: FixtureContext,
) => void;
export type AccountFixtureLoader = (
  value: unknown,
  account: AccountRow,
  path: FixturePath,
  ctx: FixtureContext,
) => void;

export interface AreaModule {
  /** unique; also the key of the area's migration version */
  name: string;
  /**
   * The permission areas this area's routes check (`area:` on each route), e.g. `[{name: 'dns'}]`.
   * The server's list of permission areas (what credentials may grant, what `tokenOnly` refuses
   * to e-mail/key pairs) is derived from these; a route naming an undeclared area fails at start.
   */
  permissions?: readonly PermissionArea[];
  /** append-only SQL migrations; index i brings the area to version i + 1 */
  migrations?: readonly string[];
  /** declares the area's API routes (paths below /client/v4) */
  routes?(router: Router, app: App): void;
  /**
   * declares test-only routes (paths below /__zoneplan); no faults, and served only when the server
   * starts with `testRoutes`, to its admin credential (http/guards.ts): declare them `area: 'public'`
   */
  testRoutes?(router: Router, app: App): void;
  /**
   * Fixture sections this area reads. `top`: keys of the document; `zone`: keys inside each
   * `zones[]` entry; `account`: keys inside each `accounts[]` entry. Loaders run inside the one
   * fixtures transaction, after the core sections, and must be idempotent (loading twice changes
   * nothing): upsert by a natural key or a stableId().
   */
  fixtures?: {
    top?: Record<string, TopFixtureLoader>;
    zone?: Record<string, ZoneFixtureLoader>;
    account?: Record<string, AccountFixtureLoader>;
  };
  /** runs in the transaction that creates a zone (API or fixtures), e.g. to add the area's defaults */
  onZoneCreated?(app: App, zone: ZoneRow): void;
  /** runs in the transaction that deletes a zone, before the zone row goes: delete the area's rows */
  onZoneDeleted?(app: App, zone: ZoneRow): void;
}
