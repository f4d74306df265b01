/**
 * `zoneplan export`, without the command line: read the owners and the selected kinds through the
 * kinds' runtime `read`, call each kind's export half (`KindDefinition.export`), assemble the desired-state document
 * (docs/reference/design.md section 2) with its comments, check it with the rules of `zoneplan validate`, and render
 * it as YAML. Secrets never reach the text: exporters write `${env:NAME}` references, and the
 * rendered text is passed through the process-wide redactor as a last guard.
 */
import type { Auth } from '../../client/types.js';
import { UserError } from '../../errors.js';
import { redact } from '../../redact.js';
import type { KindDefinition, Scope } from '../kind.js';
import { runtimeKinds, type RuntimeKind } from '../plan.js';
import type { Requester } from '../runtime.js';
import { firstUnspellable } from './escape.js';
import { VariableRegistry } from './env-names.js';
import { readOwners, type OwnerRead } from './read.js';
import { unmanagedPart, type ManagedBy } from './unmanaged.js';
import type { ExportPath, ExportProblem, ExportVariable, LayoutHint } from './types.js';
import { writeYaml } from './yaml-writer.js';
import { ID32_ANY_CASE, type Entry } from '../../rules/shared/values.js';

/**
 * The checks of `zoneplan validate` for one kind's value of one owner (src/config/check-value.ts),
 * paths relative to the value; `owner` is the owner entry without the kind's key.
 */
export type ValueCheck = (
  scope: Scope,
  owner: Record<string, unknown>,
  key: string,
  value: unknown,
) => ExportProblem[];

export interface ExportInput {
  /** every registered kind (src/kinds/index.ts); those with an `export` half are exported */
  registry: KindDefinition[];
  /** the checks of `zoneplan validate`, applied to every exported value */
  check: ValueCheck;
  client: Requester;
  auth?: Auth;
  zones: string[];
  accounts: string[];
  /** kind keys to export (`--kinds`); undefined: every kind with an export half */
  kinds?: string[];
  /** where the live state came from, for the header (no secrets: a redacted URL) */
  source: string;
  now: Date;
  /**
   * What the header's `$schema` names: the schema file this zoneplan ships, relative to where the
   * export is written, so an editor beside it completes the file (or the schema's `$id`).
   */
  schemaRef: string;
  /** `--unmanaged-by`: write only what these files do not manage */
  managedBy?: ManagedBy;
}

export interface ExportOutput {
  text: string;
  variables: ExportVariable[];
  /** what was left out and why, for stderr */
  notes: string[];
  /** per kind key: summed counts of its exporter */
  counts: Map<string, Record<string, number>>;
}

/** Kinds that can be exported: a runtime, a key of their own, and an export half. */
export function exportableKinds(registry: KindDefinition[]): RuntimeKind[] {
  return runtimeKinds(registry).filter((k) => k.def.key !== '' && k.def.export);
}

/** Accepts `-` for `_` (`a-b` for `a_b`); an unknown key is an error listing the known ones. */
export function selectKinds(
  registry: KindDefinition[],
  requested: string[] | undefined,
): { kinds: RuntimeKind[]; strict: boolean } {
  const all = exportableKinds(registry);
  if (!requested || requested.length === 0) return { kinds: all, strict: false };
  const known = new Map(all.map((k) => [k.def.key, k]));
  const picked: RuntimeKind[] = [];
  for (const raw of requested) {
    const key = raw.trim().toLowerCase().replace(/-/g, '_');
    const kind = known.get(key);
    if (!kind) throw new UserError(`--kinds: unknown kind "${raw}" (known: ${[...known.keys()].join(', ')})`);
    if (!picked.includes(kind)) picked.push(kind);
  }
  return { kinds: picked, strict: true };
}

function ownerEntry(o: OwnerRead): Entry {
  if (o.owner.scope === 'account') return { id: o.owner.id };
  const info = o.owner.info ?? {};
  const entry: Entry = { name: typeof info.name === 'string' ? info.name.toLowerCase() : o.owner.name };
  const account = (info.account as { id?: unknown } | undefined)?.id;
  if (typeof account === 'string' && ID32_ANY_CASE.test(account)) entry.account = account;
  // only used when the zone is created again; said when it is not the default
  if (info.type === 'partial' || info.type === 'secondary') entry.type = info.type;
  return entry;
}

/**
 * Kinds named with --kinds must have an owner to be read from, and each owner named must get a
 * kind: otherwise the export would succeed with nothing in it (`exported ` and an empty file).
 */
function checkScopes(
  kinds: RuntimeKind[],
  input: Pick<ExportInput, 'registry' | 'zones' | 'accounts'>,
): void {
  const of = (scope: string) => kinds.filter((k) => k.def.scope === scope).map((k) => k.def.key);
  const [zoneKinds, accountKinds] = [of('zone'), of('account')];
  if (accountKinds.length > 0 && input.accounts.length === 0) {
    throw new UserError(
      `--kinds ${accountKinds.join(',')}: account-level configuration; name the account with --account ID`,
    );
  }
  if (zoneKinds.length > 0 && input.zones.length === 0)
    throw new UserError(`--kinds ${zoneKinds.join(',')}: exported per zone; name one with --zone NAME`);
  if (input.accounts.length > 0 && accountKinds.length === 0) {
    const known = exportableKinds(input.registry).filter((k) => k.def.scope === 'account');
    throw new UserError(
      `--account: none of the kinds asked for is account-level (${known.map((k) => k.def.key).join(', ')})`,
    );
  }
  if (input.zones.length > 0 && zoneKinds.length === 0) {
    const known = exportableKinds(input.registry).filter((k) => k.def.scope === 'zone');
    throw new UserError(
      `--zone: none of the kinds asked for is exported per zone (${known.map((k) => k.def.key).join(', ')})`,
    );
  }
}

/** The checks of the request that need no target: run before one is chosen (or started). */
export function checkRequest(input: Pick<ExportInput, 'registry' | 'zones' | 'accounts' | 'kinds'>): void {
  const { kinds, strict } = selectKinds(input.registry, input.kinds);
  if (strict) checkScopes(kinds, input);
}

export async function runExport(input: ExportInput): Promise<ExportOutput> {
  const { kinds, strict } = selectKinds(input.registry, input.kinds);
  if (strict) checkScopes(kinds, input);
  const ownerKind = runtimeKinds(input.registry).find((k) => k.runtime.ownerKind && k.def.scope === 'zone');
  if (!ownerKind) throw new Error('no owner kind for zones is registered');
  const owners = await readOwners({
    client: input.client,
    auth: input.auth,
    zones: input.zones,
    accounts: input.accounts,
    ownerKind,
    kinds,
    strict,
  });

  const variables = new VariableRegistry();
  const notes: string[] = [];
  const counts = new Map<string, Record<string, number>>();
  const hints: LayoutHint[] = [];
  const verbatim: ExportPath[] = [];
  /** values their exporter already looked through for what the file cannot spell */
  const spellable = new Set<object>();
  const document: Entry = { version: 1 };
  const lists: Record<'accounts' | 'zones', Entry[]> = { accounts: [], zones: [] };

  for (const o of owners) {
    const listName = o.owner.scope === 'zone' ? 'zones' : 'accounts';
    const entry = ownerEntry(o);
    const index = lists[listName].length;
    lists[listName].push(entry);
    const base = { ...entry };
    for (const kind of kinds) {
      if (kind.def.scope !== o.owner.scope) continue;
      const key = kind.def.key;
      const failed = o.failed.get(key);
      if (failed !== undefined) {
        notes.push(`${o.owner.name}: ${key} not exported: ${failed}`);
        hints.push({ path: [listName, index], comment: `${key}: not exported (${failed})` });
        continue;
      }
      const sum = counts.get(key) ?? {};
      counts.set(key, sum);
      let live = o.live.get(key);
      let part = false;
      if (input.managedBy) {
        const u = unmanagedPart(kind.def, o.owner, live, input.managedBy);
        if (!u.whole) {
          sum['managed by the files'] = (sum['managed by the files'] ?? 0) + u.managed;
          if (!u.byKind) notes.push(`${o.owner.name}: ${key} left out: the files manage it as a whole`);
          if (u.live === undefined) continue;
          [live, part] = [u.live, true];
        }
      }
      const result = kind.def.export!.value(live, {
        owner: o.owner,
        variables,
        check: (value) => input.check(o.owner.scope, base, key, value),
        part,
      });
      notes.push(...(result.notes ?? []));
      for (const [k, n] of Object.entries(result.counts ?? {})) sum[k] = (sum[k] ?? 0) + n;
      if (result.value === undefined) continue;
      entry[key] = result.value;
      const at = (path: ExportPath): ExportPath => [listName, index, key, ...path];
      for (const h of result.layout ?? []) hints.push({ ...h, path: at(h.path) });
      verbatim.push(...(result.verbatim ?? []).map(at));
      if (result.spellable) spellable.add(result.value);
    }
  }
  if (lists.accounts.length > 0) document.accounts = lists.accounts;
  document.zones = lists.zones;

  // a kind left out (by --kinds, or skipped because the target refused it) makes the file partial
  const partial =
    owners.some((o) => o.failed.size > 0) ||
    exportableKinds(input.registry).some(
      (k) => !kinds.some((p) => p.def.key === k.def.key) && owners.some((o) => o.owner.scope === k.def.scope),
    );
  const header = headerOf(input, kinds, owners, variables.variables, partial);
  const unspellable = firstUnspellable(document, spellable);
  if (unspellable) {
    // Exporters route such values elsewhere where they can (e.g. an ignore entry); a kind that
    // cannot is written as it is, so loading fails on it rather than changing it quietly.
    notes.push(
      `${pathText(unspellable)} holds \`\${env:\` with no closing \`}\`, which a desired-state file cannot ` +
        'spell; edit that value in the file (or live) before plan',
    );
  }
  const rendered = writeYaml(document, hints, header, verbatim);
  const text = guardSecrets(rendered);
  if (text !== rendered) notes.push('a value matching a known secret was masked in the export; review it');
  return { text, variables: variables.variables, notes, counts };
}

/**
 * Exporters never write a secret; should one slip through, the process-wide redactor masks it here.
 * `${env:NAME}` references are held aside first: validating an export registers destination parts,
 * and a part that is a reference is no secret.
 */
function guardSecrets(text: string): string {
  if (!text.includes('${env:')) return redact(text); // nothing to hold aside (most exports)
  const refs: string[] = [];
  const held = text.replace(
    /\$\{env:[A-Za-z_][A-Za-z0-9_]*\}/g,
    (ref) => `\u0000${refs.push(ref) - 1}\u0000`,
  );
  const masked = redact(held);
  if (masked === held) return text;
  return masked.replace(/\u0000(\d+)\u0000/g, (_, i: string) => refs[Number(i)]);
}

/** `zones[0].<key>.records[3].content`, the form diagnostics use. */
const pathText = (path: ExportPath) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

function headerOf(
  input: ExportInput,
  kinds: RuntimeKind[],
  owners: OwnerRead[],
  variables: ExportVariable[],
  partial: boolean,
): string {
  const zones = owners.filter((o) => o.owner.scope === 'zone').map((o) => o.owner.name);
  const accounts = owners.filter((o) => o.owner.scope === 'account').map((o) => o.owner.name);
  const lines = [
    `yaml-language-server: $schema=${input.schemaRef}`,
    '',
    `Exported by \`zoneplan export\` from ${input.source} at ${input.now.toISOString()}.`,
    `zones: ${zones.join(', ') || '(none)'}${accounts.length ? `; accounts: ${accounts.join(', ')}` : ''}`,
    `kinds: ${kinds
      .filter((k) => owners.some((o) => o.owner.scope === k.def.scope))
      .map((k) => k.def.key)
      .join(', ')}`,
    variables.length > 0
      ? '`zoneplan plan` of this file (with the variables below set) against the same live state reports no changes.'
      : '`zoneplan plan` of this file against the same live state reports no changes.',
  ];
  if (input.managedBy) {
    const { files } = input.managedBy;
    lines.push(
      `Only the live objects that ${files.join(', ')} ${files.length === 1 ? 'does' : 'do'} not manage (\`export --unmanaged-by\`):`,
      // a kind the files do not set is written whole, purge included, as a plain export writes it:
      // the header must not promise that nothing is purged
      'the kinds they manage are written with purge off, and a kind they do not set is written whole,',
      'so planned on its own it leaves the objects those files manage as they are.',
    );
  }
  if (partial) {
    lines.push(
      'Only the kinds listed were exported: this file describes them, not everything live. A kind the',
      'file does not name is not managed, so plan and apply leave the other kinds of these zones and',
      'accounts as they are.',
    );
  }
  if (variables.length > 0) {
    lines.push('', 'Secrets are not in this file. Set these environment variables before plan or apply:');
    for (const v of variables) lines.push(`  ${v.name}  (${v.describe})`);
  }
  return lines.join('\n');
}
