/**
 * The provider's changes to the managed rulesets, replayed by tests: the top-level fixtures
 * section `managed_rulesets` and the test-only route that publishes a new version at runtime.
 *
 *   managed_rulesets:
 *     - id: efb7b8c949ac4650a09736fc376e9aee   # one of the three managed ruleset ids
 *       base: { version, last_updated, rules: [...] }   # optional: a copy of another target's (./managed-base.ts)
 *       versions:                              # the versions after the first (or the base), in order
 *         - last_updated: 2026-02-01T00:00:00Z # optional (default: one day after the version before)
 *           add: [{ id, description, categories, action?, enabled? }]   # action default block
 *           remove: [<rule id>, ...]
 *           change: [{ id, action?, enabled?, description?, categories? }]
 *
 * A version is a fact the API cannot change, so the entry follows the file on every load (the n-th
 * version is the first's number + n); a version the test route published after them stays, unless
 * the first version itself changed (a new or removed `base`).
 */
import type { FixtureContext, FixturePath } from '../../area.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { now } from '../../store/ids.js';
import { isPlainObject } from '../area-helpers/replies.js';
import { MANAGED_RULESET_IDS, firstManagedVersions } from './managed-catalogue.js';
import { parseBase, writeBase } from './managed-base.js';
import {
  applyChanges,
  defaultVersionDate,
  managedVersions,
  parseChanges,
  saveChanges,
} from './managed-versions.js';
import { WAF_CODES } from './migration-routes.js';

const ENTRY_KEYS = ['id', 'base', 'versions'];

export function loadManagedRulesetFixtures(value: unknown, path: FixturePath, ctx: FixtureContext): void {
  if (!Array.isArray(value)) ctx.fail(path, 'must be a list of managed rulesets ({id, versions})');
  const seen = new Set<string>();
  value.forEach((entry, i) => {
    const p = [...path, i];
    if (!isPlainObject(entry)) ctx.fail(p, 'must be a mapping (id, versions)');
    for (const k of Object.keys(entry))
      if (!ENTRY_KEYS.includes(k)) ctx.fail([...p, k], `is not a key here; use ${ENTRY_KEYS.join(', ')}`);
    const generated = firstManagedVersions().find((r) => r.id === entry.id);
    if (!generated) {
      ctx.fail(
        [...p, 'id'],
        `must be the id of a managed ruleset: ${Object.values(MANAGED_RULESET_IDS).join(', ')}`,
      );
    }
    if (seen.has(generated.id)) ctx.fail([...p, 'id'], `${generated.id} is already given above`);
    seen.add(generated.id);
    const base =
      entry.base === undefined
        ? undefined
        : parseBase(entry.base, generated, (sub, message) => ctx.fail([...p, 'base', ...sub], message));
    writeBase(ctx.app.db, generated.id, base);
    const first = base ?? generated;
    const versions = entry.versions ?? [];
    if (!Array.isArray(versions))
      ctx.fail([...p, 'versions'], 'must be a list of versions (add, remove, change)');
    let before = first;
    versions.forEach((raw, vi) => {
      const version = Number(before.version) + 1;
      const changes = parseChanges(raw, before, defaultVersionDate(before), (sub, message) =>
        ctx.fail([...p, 'versions', vi, ...sub], message),
      );
      saveChanges(ctx.app.db, first.id, version, changes);
      before = applyChanges(before, changes);
    });
  });
}

/** `add[0].id` from ['add', 0, 'id'], as the API's other messages name places. */
function dotted(path: (string | number)[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** `POST /__zoneplan/rulesets/{ruleset_id}/versions`: publishes the next version of a managed ruleset. */
function publish(ctx: RequestContext): Reply {
  const db = ctx.app.db;
  const id = ctx.params.ruleset_id;
  return db.transaction(() => {
    const versions = managedVersions(db, id);
    if (!versions) throw ApiError.of(404, WAF_CODES.notFound, `${id.slice(0, 40)} is not a managed ruleset`);
    const before = versions.at(-1)!;
    const changes = parseChanges(ctx.body, before, now(), (sub, message) => {
      throw ApiError.of(400, WAF_CODES.invalid, sub.length > 0 ? `${dotted(sub)}: ${message}` : message);
    });
    saveChanges(db, id, Number(before.version) + 1, changes);
    return ok(applyChanges(before, changes));
  })();
}

export function managedRulesetTestRoutes(router: Router): void {
  router.add({ method: 'POST', path: '/rulesets/:ruleset_id/versions', area: 'public', handler: publish });
}
