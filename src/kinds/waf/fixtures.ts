/**
 * A zone's WAF state in a fixtures export (`zones[].waf`, docs/fixtures.md): the migration state,
 * the previous WAF's packages, groups and rules (modes, default modes, allowed modes, the ids of
 * their new rules) and URI-based overrides, the firewall facts that block a migration, and the
 * managed phase entry point ruleset, all with their ids, so a served copy answers every read of
 * the plan (status, check, config, overrides, entry point) as the original did.
 *
 * The plan's read (./runtime.ts) fetches only what planning needs; what only a copy needs comes
 * from `read` here (GETs only). For a file (`export --as fixtures`): the packages with their groups
 * and rules, the overrides whole, and the entry point as the API returns it (ruleset id and
 * version). For a zone in validation, file or rehearsal alike: its overrides, firewall facts and
 * compatibility check, which its plan does not read but its final step depends on. A rehearsal of a
 * file that names managed rulesets also copies their catalogue (top-level `managed_rulesets`).
 */
import { listAll } from '../../core/list.js';
import type { KindFixtures } from '../../core/kind.js';
import type { Requester } from '../../core/runtime.js';
import { managedExecuteRule, overrideForPreviousRule } from '../../rules/waf/index.js';
import { checkCompatibility, getEntrypointRaw } from './api.js';
import { catalogueFixtures } from './catalogue.js';
import { readFirewallFacts } from './firewall.js';
import { toRuleset, type OverrideEntry, type WafLive } from './model.js';

type Raw = Record<string, unknown>;

/** What `read` adds to the plan's live state. */
export interface WafFixturesLive extends WafLive {
  packages?: { pkg: Raw; groups: Raw[]; rules: Raw[] }[];
  rawOverrides?: Raw[];
  rawEntrypoint?: Raw | null;
}

const PER_PAGE = 100; // the previous WAF lists' maximum
const base = (zone: string) => `/zones/${zone}/firewall/waf`;

async function readPackages(client: Requester, zone: string): Promise<WafFixturesLive['packages']> {
  const pkgs = await listAll<Raw>(client, `${base(zone)}/packages`, { perPage: PER_PAGE });
  return Promise.all(
    pkgs.map(async (pkg) => {
      const at = `${base(zone)}/packages/${String(pkg.id)}`;
      const [groups, rules] = await Promise.all([
        listAll<Raw>(client, `${at}/groups`, { perPage: PER_PAGE }),
        listAll<Raw>(client, `${at}/rules`, { perPage: PER_PAGE }),
      ]);
      return { pkg, groups, rules };
    }),
  );
}

/**
 * The support-only blockers as the compatibility check states them (the shared messages of
 * src/rules/waf), for a target that does not list its firewall rules: only counts over the limits
 * are said there, and a count under them behaves as 0 does.
 */
export function factsFromReasons(
  reasons: string[],
): { count: number; longestExpressionBytes: number } | undefined {
  let count = 0;
  let longest = 0;
  for (const r of reasons) {
    const c = /has (\d+) firewall rules/.exec(r);
    if (c) count = Number(c[1]);
    const l = /expression is (\d+) bytes/.exec(r);
    if (l) longest = Number(l[1]);
  }
  return count || longest ? { count, longestExpressionBytes: longest } : undefined;
}

const canonical = (v: Raw) =>
  JSON.stringify(
    Object.keys(v)
      .sort()
      .map((k) => [k, v[k]]),
  );

/**
 * The new rule id of each previous rule whose mode the migration carries over. The equivalent
 * configuration (read by the plan) lists one override per such rule, in rule order, as the local
 * API derives it; when they pair up exactly, each rule gets its override's id (`new_id`), so the
 * copy derives the same configuration. When they do not (another target's mapping), undefined:
 * the configuration is then copied as it is (`migration_config`).
 */
function newIds(live: WafFixturesLive): Map<string, string> | undefined {
  const out = new Map<string, string>();
  const overrides: OverrideEntry[] = (live.config?.rules ?? []).flatMap(
    (r) => r.action_parameters?.overrides?.rules ?? [],
  );
  const wanted: { rule: string; o: Raw }[] = [];
  for (const { groups, rules } of live.packages ?? []) {
    const off = new Set(groups.filter((g) => g.mode === 'off').map((g) => String(g.id)));
    for (const g of groups) {
      for (const rule of rules.filter((r) => groupOf(r) === String(g.id))) {
        const o = overrideForPreviousRule(rule) ?? (off.has(String(g.id)) ? { enabled: false } : undefined);
        if (o) wanted.push({ rule: String(rule.id), o: o as Raw });
      }
    }
  }
  if (wanted.length !== overrides.length) return undefined;
  for (let i = 0; i < wanted.length; i++) {
    const { id, ...rest } = overrides[i];
    if (canonical(rest) !== canonical(wanted[i].o)) return undefined;
    out.set(wanted[i].rule, String(id));
  }
  // what the copy will answer, byte for byte as the plan reads it (its digest is in the plan)
  const derived = toRuleset({
    name: 'default',
    rules: [
      {
        id: '',
        version: '',
        ref: '',
        ...managedExecuteRule(wanted.map((w, i) => ({ id: String(overrides[i].id), ...w.o }))),
      },
    ],
  });
  return JSON.stringify(derived) === JSON.stringify(live.config) ? out : undefined;
}

const groupOf = (rule: Raw) =>
  String((rule.group as { id?: unknown } | undefined)?.id ?? rule.group_id ?? '');

function packagesOf(live: WafFixturesLive, ids: Map<string, string>): Raw[] {
  return (live.packages ?? []).map(({ pkg, groups, rules }) => {
    const out: Raw = { id: pkg.id, name: pkg.name, detection_mode: pkg.detection_mode };
    if (typeof pkg.description === 'string') out.description = pkg.description;
    if (pkg.detection_mode === 'anomaly') {
      if (pkg.sensitivity !== undefined) out.sensitivity = pkg.sensitivity;
      if (pkg.action_mode !== undefined) out.action_mode = pkg.action_mode;
    }
    out.groups = groups.map((g) => {
      const group: Raw = { id: g.id, name: g.name, mode: g.mode };
      if (typeof g.description === 'string') group.description = g.description;
      group.rules = rules
        .filter((r) => groupOf(r) === String(g.id))
        .map((r) => {
          const rule: Raw = { id: r.id, description: r.description ?? '', mode: r.mode };
          if (r.priority !== undefined) rule.priority = r.priority;
          // an anomaly rule is on or off: it has no default mode
          if (r.default_mode !== undefined && pkg.detection_mode !== 'anomaly')
            rule.default_mode = r.default_mode;
          if (Array.isArray(r.allowed_modes)) rule.allowed_modes = r.allowed_modes;
          const newId = typeof r.new_id === 'string' ? r.new_id : ids.get(String(r.id));
          if (newId) rule.new_id = newId;
          return rule;
        });
      return group;
    });
    return out;
  });
}

const OVERRIDE_FIELDS = [
  'id',
  'description',
  'urls',
  'rules',
  'groups',
  'rewrite_action',
  'paused',
  'priority',
];

function overridesOf(live: WafFixturesLive): Raw[] {
  if (live.rawOverrides) {
    return live.rawOverrides.map((o) =>
      Object.fromEntries(OVERRIDE_FIELDS.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])),
    );
  }
  return live.uriOverrides.map((o) => ({ id: o.id, urls: o.urls, description: o.description }));
}

function entrypointOf(live: WafFixturesLive): Raw | undefined {
  const raw = live.rawEntrypoint ?? live.entrypoint ?? undefined;
  if (!raw) return undefined;
  const keep = ['id', 'name', 'description', 'version', 'last_updated', 'rules'];
  return Object.fromEntries(
    keep.filter((k) => raw[k as keyof typeof raw] !== undefined).map((k) => [k, raw[k as keyof typeof raw]]),
  );
}

/** undefined for a refusal that means "not here (any more)": 400, 404, 405. */
async function unlessGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 400 || status === 404 || status === 405) return undefined;
    throw err;
  }
}

export const wafFixtures: KindFixtures = {
  async read(raw, ctx) {
    const live: WafFixturesLive = { ...(raw as WafLive) };
    const { client } = ctx;
    const zone = ctx.owner.id;
    const state = live.status.migration_state;
    const reads: Promise<unknown>[] = [];
    // a rehearsal needs only what planning and applying in the sandbox use: the configuration the
    // plan read stands in for the rules it derives from (migration_config)
    const forFile = ctx.for === 'file';
    if (state !== 'complete') {
      // the previous WAF runs until the migration completes: its APIs answer until then (a zone
      // that migrated since the plan's read answers 400: the copy then holds what the plan read)
      if (forFile) reads.push(unlessGone(readPackages(client, zone)).then((p) => (live.packages = p)));
      // in validation the plan reads no override, yet the final step is refused while one exists
      if (forFile || state === 'validation') {
        reads.push(
          unlessGone(listAll<Raw>(client, `${base(zone)}/overrides`, { perPage: PER_PAGE })).then(
            (o) => (live.rawOverrides = o),
          ),
        );
      }
    }
    if (state === 'validation') {
      // the final step checks eligibility again; the plan reads neither of these in validation
      reads.push(readFirewallFacts(client, zone).then((f) => (live.firewall = f)));
      reads.push(unlessGone(checkCompatibility(client, zone)).then((c) => (live.check = c ?? live.check)));
    }
    if (forFile && (state === 'validation' || state === 'complete')) {
      reads.push(getEntrypointRaw(client, zone).then((e) => (live.rawEntrypoint = e)));
    }
    await Promise.all(reads);
    return live;
  },
  entry(raw) {
    const live = raw as WafFixturesLive;
    const waf: Raw = { migration_state: live.status.migration_state };
    const facts = live.firewall ?? factsFromReasons(live.check?.reasons ?? []);
    if (facts) {
      waf.firewall_rules = facts.count;
      waf.longest_firewall_expression = facts.longestExpressionBytes;
    }
    const ids = live.packages ? newIds(live) : undefined;
    const packages = packagesOf(live, ids ?? new Map());
    if (packages.length > 0) waf.packages = packages;
    // the copy derives the configuration from the rules unless it cannot: then it answers this one
    if (live.config && !ids) waf.migration_config = live.config;
    const overrides = overridesOf(live);
    if (overrides.length > 0) waf.overrides = overrides;
    const entrypoint = entrypointOf(live);
    if (entrypoint) waf.entrypoint = entrypoint;
    // the catalogue is read for a file that names managed rulesets (a rehearsal of it)
    const catalogue = live.catalogue ? catalogueFixtures(live.catalogue) : [];
    return {
      fields: { waf },
      ...(catalogue.length > 0 ? { sections: { managed_rulesets: catalogue } } : {}),
    };
  },
};
