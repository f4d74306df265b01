/**
 * `zoneplan export --as fixtures`, without the command line: reads the selected owners through the
 * kinds' runtime `read` (the same reads as `plan`), asks every kind with a fixtures half
 * (KindDefinition.fixtures) for its share, and assembles a fixtures document for `zoneplan serve`.
 * Serving that file and planning against it gives the plan the original target gives: same ids,
 * same values. The document is written as JSON, which every YAML reader (and the fixtures loader)
 * accepts, and which keeps every id and value exactly as read.
 */
import type { Auth } from '../../client/types.js';
import { UserError } from '../../errors.js';
import { redact } from '../../redact.js';
import type { KindDefinition } from '../kind.js';
import { runtimeKinds, type LiveState, type RuntimeKind } from '../plan.js';
import type { Requester, Step } from '../runtime.js';
import { VariableRegistry } from './env-names.js';
import { readOwners } from './read.js';
import type { ExportVariable } from './types.js';

export interface FixturesExportInput {
  registry: KindDefinition[];
  client: Requester;
  auth?: Auth;
  zones: string[];
  accounts: string[];
}

export interface FixturesExportOutput {
  text: string;
  counts: { accounts: number; zones: number };
  /** the `${env:NAME}` references the file holds instead of secrets (for stderr; never a value) */
  variables: ExportVariable[];
}

type Obj = Record<string, unknown>;

export async function runFixturesExport(input: FixturesExportInput): Promise<FixturesExportOutput> {
  const all = runtimeKinds(input.registry);
  const ownerKind = all.find((k) => k.runtime.ownerKind && k.def.scope === 'zone');
  if (!ownerKind) throw new UserError('no owner kind for zones is registered');
  const withFixtures = all.filter((k) => k.def.fixtures && !k.runtime.ownerKind);
  const owners = await readOwners({
    client: input.client,
    auth: input.auth,
    zones: input.zones,
    accounts: input.accounts,
    ownerKind,
    kinds: withFixtures,
    strict: false,
  });
  const accounts = new Map<string, Obj>();
  const mergeAccount = (a: Obj) => {
    const id = String(a.id);
    accounts.set(id, { ...(accounts.get(id) ?? {}), ...a });
  };
  const zones: Obj[] = [];
  const sections: Sections = new Map();
  const variables = new VariableRegistry();
  // the kinds' extra reads (KindFixtures.read), owners side by side (the client keeps the budget)
  await Promise.all(
    owners.map(async (o) => {
      for (const k of withFixtures) {
        const extra = k.def.fixtures!.read;
        if (!extra || !o.live.has(k.def.key)) continue;
        const ctx = { client: input.client, owner: o.owner, auth: input.auth, for: 'file' as const };
        o.live.set(k.def.key, await extra(o.live.get(k.def.key), ctx));
      }
    }),
  );
  for (const o of owners) {
    const entry: Obj = o.owner.scope === 'zone' ? { name: o.owner.name } : { id: o.owner.id };
    const parts: [KindDefinition, unknown][] = [];
    if (o.owner.scope === 'zone' && ownerKind.def.fixtures) parts.push([ownerKind.def, o.owner.info ?? null]);
    for (const k of withFixtures) {
      if (k.def.scope === o.owner.scope && o.live.has(k.def.key)) parts.push([k.def, o.live.get(k.def.key)]);
    }
    for (const [def, live] of parts) {
      const share = def.fixtures!.entry(live, o.owner, { variables });
      Object.assign(entry, share.fields ?? {});
      for (const a of share.accounts ?? []) mergeAccount(a);
      mergeSections(sections, share.sections);
    }
    if (o.owner.scope === 'zone') zones.push(entry);
    // an account read on its own has no name to copy (only zones carry theirs): its id stands in
    else mergeAccount({ name: accounts.get(o.owner.id)?.name ?? o.owner.id, ...entry });
  }
  const doc: Obj = { accounts: [...accounts.values()], zones, ...sectionsOf(sections) };
  // secrets are written as ${env:NAME} by the kinds; the redactor is the last guard
  const text = redact(JSON.stringify(doc, null, 2)) + '\n';
  return {
    text,
    counts: { accounts: accounts.size, zones: zones.length },
    variables: variables.variables,
  };
}

/**
 * The live state with each kind's extra fixtures read done (KindFixtures.read), then, for owners
 * with steps of a kind that has one, its checks with the target (KindFixtures.prove), for
 * `fixturesFromLive`. Kinds without either keep their value; `live` is not changed. The target
 * gets GETs and side-effect-free validations only (`checks` lists the latter, as sent): any other
 * request is refused here before it leaves.
 */
export async function withFixtureReads(
  live: LiveState,
  kinds: RuntimeKind[],
  target: { client: Requester; auth?: Auth },
  steps: Step[] = [],
): Promise<{ live: LiveState; checks: string[] }> {
  const checks: string[] = [];
  const client = readsAndChecksOnly(target.client, checks);
  const auth = target.auth;
  const owners = await Promise.all(
    live.owners.map(async (o) => {
      const id = o.owner.id;
      const mine = (k: RuntimeKind) =>
        steps.filter(
          (s) => s.kind === k.name && s.owner.scope === o.owner.scope && s.owner.name === o.owner.name,
        );
      const extra = kinds.filter(
        (k) => o.live.has(k.name) && (k.def.fixtures?.read || (k.def.fixtures?.prove && mine(k).length > 0)),
      );
      if (!id || extra.length === 0) return o;
      const values = new Map(o.live);
      for (const k of extra) {
        const owner = { ...o.owner, id };
        const fixtures = k.def.fixtures!;
        let value = values.get(k.name);
        if (fixtures.read) value = await fixtures.read(value, { client, owner, auth, for: 'sandbox' });
        const own = mine(k);
        if (fixtures.prove && own.length > 0)
          value = await fixtures.prove(value, own, { client, owner, auth });
        values.set(k.name, value);
      }
      return { ...o, live: values };
    }),
  );
  return { live: { ...live, owners }, checks };
}

/**
 * The target as a rehearsal may use it: GETs, and POSTs to a `.../validate` endpoint (the API's
 * side-effect-free checks, e.g. a Logpush ownership challenge), recorded in `checks`.
 */
function readsAndChecksOnly(client: Requester, checks: string[]): Requester {
  return {
    request: ((method: string, path: string, options?: unknown) => {
      const m = method.toUpperCase();
      if (m !== 'GET') {
        if (m !== 'POST' || !/\/validate$/.test(path.split('?')[0]))
          throw new Error(`a rehearsal may not send ${m} ${path} to the target`);
        checks.push(`${m} ${path}`);
      }
      return client.request(method, path, options as never);
    }) as Requester['request'],
  };
}

/**
 * The fixtures document of live state the plan already read (`plan --rehearse`): the same mapping
 * as `export --as fixtures`, with no further request.
 */
export function fixturesFromLive(live: LiveState, kinds: RuntimeKind[]): Obj {
  const accounts = new Map<string, Obj>();
  const zones: Obj[] = [];
  const sections: Sections = new Map();
  for (const o of live.owners) {
    if (!o.owner.id) continue; // an owner the plan creates: the sandbox creates it too
    const owner = { scope: o.owner.scope, name: o.owner.name, id: o.owner.id, info: o.owner.info };
    const entry: Obj = o.owner.scope === 'zone' ? { name: o.owner.name } : { id: o.owner.id };
    for (const k of kinds) {
      if (!k.def.fixtures || k.def.scope !== o.owner.scope || !o.live.has(k.name)) continue;
      const share = k.def.fixtures.entry(o.live.get(k.name), owner);
      Object.assign(entry, share.fields ?? {});
      mergeSections(sections, share.sections);
      for (const a of share.accounts ?? []) {
        const id = String(a.id);
        accounts.set(id, { ...(accounts.get(id) ?? {}), ...a });
      }
    }
    if (o.owner.scope === 'zone') zones.push(entry);
    else accounts.set(o.owner.id, { name: o.owner.id, ...(accounts.get(o.owner.id) ?? {}), ...entry });
  }
  return { accounts: [...accounts.values()], zones, ...sectionsOf(sections) };
}

/** Top-level sections the kinds give (KindFixtures.entry's `sections`): entries by id, first wins. */
type Sections = Map<string, Map<string, Obj>>;

function mergeSections(into: Sections, given: Record<string, Obj[]> | undefined): void {
  for (const [name, entries] of Object.entries(given ?? {})) {
    let section = into.get(name);
    if (!section) into.set(name, (section = new Map()));
    for (const e of entries) if (!section.has(String(e.id))) section.set(String(e.id), e);
  }
}

function sectionsOf(sections: Sections): Obj {
  return Object.fromEntries([...sections].map(([name, entries]) => [name, [...entries.values()]]));
}
