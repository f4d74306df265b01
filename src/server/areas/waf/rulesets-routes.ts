/**
 * Reading rulesets by id (Rulesets API, token only): `GET /zones/:zone_id/rulesets` lists the
 * zone's own entry points and the managed rulesets it can execute, without their rules;
 * `.../rulesets/:ruleset_id` answers the latest version with its rules; `.../versions` lists the
 * versions and `.../versions/:ruleset_version` answers one. The entry point's own versions are
 * also reached by phase (`.../phases/:ruleset_phase/entrypoint/versions[/:ruleset_version]`).
 */
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { requireId } from '../area-helpers/replies.js';
import { managedVersions, latestManagedRulesets } from './managed-versions.js';
import { WAF_CODES } from './migration-routes.js';
import type { ManagedRuleset } from './managed-catalogue.js';
import { listZoneRulesets, readRuleset, zoneRulesetVersions, type StoredRuleset } from './ruleset-store.js';
import { phaseOf } from './entrypoint.js';

/** A ruleset as the lists show it: everything but its rules. */
function withoutRules<T extends { rules: unknown }>(rs: T): Omit<T, 'rules'> {
  const { rules: _rules, ...rest } = rs;
  return rest;
}

function list(ctx: RequestContext): Reply {
  const own = listZoneRulesets(ctx.app.db, ctx.zone!.id);
  return ok([...own, ...latestManagedRulesets(ctx.app.db)].map(withoutRules));
}

/** Every version of a ruleset the zone can read, oldest first: a managed one or one of its own. */
function versionsOf(ctx: RequestContext): (ManagedRuleset | StoredRuleset)[] {
  const id = requireId(ctx, 'ruleset_id');
  const versions: (ManagedRuleset | StoredRuleset)[] =
    managedVersions(ctx.app.db, id) ?? zoneRulesetVersions(ctx.app.db, ctx.zone!.id, id);
  if (versions.length === 0) throw ApiError.of(404, WAF_CODES.notFound, `could not find ruleset ${id}`);
  return versions;
}

/** The `{ruleset_version}` of a path: digits only (OpenAPI rulesets_RulesetVersion), else 400 code 7003. */
function versionParam(ctx: RequestContext): string {
  const v = ctx.params.ruleset_version;
  if (!/^[0-9]+$/.test(v)) throw ApiError.badId(ctx.path);
  return String(Number(v));
}

function pickVersion<T extends { version: string }>(ctx: RequestContext, versions: T[], what: string): T {
  const wanted = versionParam(ctx);
  const found = versions.find((v) => v.version === wanted);
  if (!found) throw ApiError.of(404, WAF_CODES.notFound, `could not find version ${wanted} of ${what}`);
  return found;
}

function entrypointVersions(ctx: RequestContext) {
  const phase = phaseOf(ctx);
  const current = readRuleset(ctx.app.db, ctx.zone!.id, phase);
  const versions = current ? zoneRulesetVersions(ctx.app.db, ctx.zone!.id, current.id) : [];
  if (versions.length === 0) {
    throw ApiError.of(404, WAF_CODES.notFound, `could not find entrypoint ruleset in the '${phase}' phase`);
  }
  return versions;
}

export function rulesetRoutes(router: Router): void {
  const one = '/zones/:zone_id/rulesets/:ruleset_id';
  const entry = '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint';
  const get = (path: string, handler: (ctx: RequestContext) => Reply) =>
    router.add({ method: 'GET', path, area: 'rulesets', handler });
  get('/zones/:zone_id/rulesets', list);
  get(one, (ctx) => ok(versionsOf(ctx).at(-1)));
  get(`${one}/versions`, (ctx) => ok(versionsOf(ctx).map(withoutRules)));
  get(`${one}/versions/:ruleset_version`, (ctx) =>
    ok(pickVersion(ctx, versionsOf(ctx), `ruleset ${ctx.params.ruleset_id}`)),
  );
  get(`${entry}/versions`, (ctx) => ok(entrypointVersions(ctx).map(withoutRules)));
  get(`${entry}/versions/:ruleset_version`, (ctx) =>
    ok(pickVersion(ctx, entrypointVersions(ctx), `the ${ctx.params.ruleset_phase} entry point`)),
  );
}
