/**
 * The catalogue of managed rulesets a zone can execute, read from the Rulesets API for the rulesets a
 * file names under `managed_rulesets` (and only then: a zone whose file does not use them costs no
 * request more). Per named ruleset: its latest version's rules (what the plan checks the file's rule
 * ids and categories against) and, when the provider has published versions since the one the last
 * apply wrote against, that version's rules too (what drift compares, see `seenVersionOf`).
 */
import type { Requester } from '../../core/runtime.js';
import type { RulesetRule } from './model.js';

export interface CatalogueRule {
  id: string;
  description: string;
  /** the rule's default action */
  action: string;
  categories: string[];
  enabled: boolean;
}

export interface CatalogueRuleset {
  id: string;
  name: string;
  version: string;
  last_updated: string;
  rules: CatalogueRule[];
  /** the version the entry point's execute rule was last written against, when it is an older one */
  seen?: { version: string; rules: CatalogueRule[] };
}

export interface Catalogue {
  /** the managed rulesets the zone can execute (the list, without rules) */
  available: { id: string; name: string; version: string }[];
  /** the rulesets the file names, with their rules; absent when the zone cannot execute one */
  rulesets: Record<string, CatalogueRuleset>;
}

/**
 * The version an execute rule was last written against: every write of an execute rule for a
 * ruleset the file names records it at the end of the rule's description, where it changes nothing
 * the API does and survives every later read (the API keeps no state of ours anywhere else).
 */
const SEEN_MARK = /\s*\(rules seen at version (\d+)\)$/;

export function seenVersionOf(rule: RulesetRule | undefined): string | undefined {
  return typeof rule?.description === 'string' ? SEEN_MARK.exec(rule.description)?.[1] : undefined;
}

export function withSeenVersion(description: string | undefined, version: string): string {
  return `${(description ?? '').replace(SEEN_MARK, '')} (rules seen at version ${version})`.trimStart();
}

function toRule(raw: unknown): CatalogueRule {
  const r = (raw ?? {}) as Record<string, unknown>;
  return {
    id: String(r.id ?? '').toLowerCase(),
    description: typeof r.description === 'string' ? r.description : '',
    action: typeof r.action === 'string' ? r.action : '',
    categories: Array.isArray(r.categories) ? r.categories.map(String) : [],
    enabled: r.enabled !== false,
  };
}

const rulesOf = (raw: unknown): CatalogueRule[] => {
  const rules = (raw as { rules?: unknown } | null)?.rules;
  return Array.isArray(rules) ? rules.map(toRule) : [];
};

/**
 * Reads the catalogue for `ids` (the rulesets the file names). `seen` gives, per ruleset id, the
 * version its execute rule was last written against (from the live entry point).
 */
export async function readCatalogue(
  client: Requester,
  zone: string,
  ids: string[],
  seen: Record<string, string | undefined>,
): Promise<Catalogue> {
  const listed = (await client.request('GET', `/zones/${zone}/rulesets`)).result;
  const available = (Array.isArray(listed) ? listed : [])
    .map((r) => (r ?? {}) as Record<string, unknown>)
    .filter((r) => r.kind === 'managed' && typeof r.id === 'string')
    .map((r) => ({
      id: String(r.id).toLowerCase(),
      name: String(r.name ?? ''),
      version: String(r.version ?? ''),
    }));
  const rulesets: Record<string, CatalogueRuleset> = {};
  await Promise.all(
    ids
      .filter((id) => available.some((a) => a.id === id))
      .map(async (id) => {
        const raw = (await client.request('GET', `/zones/${zone}/rulesets/${id}`)).result as Record<
          string,
          unknown
        >;
        const ruleset: CatalogueRuleset = {
          id,
          name: String(raw?.name ?? ''),
          version: String(raw?.version ?? ''),
          last_updated: String(raw?.last_updated ?? ''),
          rules: rulesOf(raw),
        };
        const version = seen[id];
        if (version !== undefined && version !== ruleset.version) {
          try {
            const old = await client.request('GET', `/zones/${zone}/rulesets/${id}/versions/${version}`);
            ruleset.seen = { version, rules: rulesOf(old.result) };
          } catch (err) {
            // a version the provider no longer serves: nothing to compare with, nothing reported
            if ((err as { status?: number }).status !== 404) throw err;
          }
        }
        rulesets[id] = ruleset;
      }),
  );
  return { available, rulesets };
}

/**
 * The catalogue as the fixtures' top-level `managed_rulesets` section (docs/fixtures.md): each
 * named ruleset's latest version as the `base` of the copy, so a rehearsal sandbox checks the file's
 * rule ids and categories against the target's catalogue, not the local API's generated one.
 */
export function catalogueFixtures(catalogue: Catalogue): Record<string, unknown>[] {
  return Object.values(catalogue.rulesets)
    .filter((r) => /^\d+$/.test(r.version) && r.last_updated !== '')
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((r) => ({
      id: r.id,
      base: { version: r.version, last_updated: r.last_updated, name: r.name, rules: r.rules },
    }));
}
