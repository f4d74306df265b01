/**
 * The reading end of `export`: the owners (zones by name through the owner kind, accounts by id)
 * and, per owner, each selected kind's live state through the kind's own runtime `read`, so the
 * export sees exactly what `plan` sees. Owners are read a few at a time; the client enforces the
 * request budget.
 */
import type { Auth } from '../client/types.js';
import type { RuntimeKind } from '../core/plan.js';
import type { OwnerRef, Requester } from '../core/runtime.js';
import { UserError } from '../errors.js';

export interface OwnerRead {
  owner: OwnerRef & { id: string };
  /** kind key -> live value */
  live: Map<string, unknown>;
  /** kind key -> why it could not be read (only when skipping is allowed) */
  failed: Map<string, string>;
}

export interface ReadInput {
  client: Requester;
  auth?: Auth;
  zones: string[];
  accounts: string[];
  /** the owner kind (zones) and the kinds to export */
  ownerKind: RuntimeKind;
  kinds: RuntimeKind[];
  /** when true (kinds picked by the user), a kind that cannot be read fails the export */
  strict: boolean;
  concurrency?: number;
}

/** A refusal that means "not available here" (plan, entitlement), not a broken run. */
function skippable(err: unknown): boolean {
  if (!(err instanceof UserError)) return false;
  const status = (err as { status?: unknown }).status;
  if (typeof status !== 'number') return true; // a kind's own UserError ("not available on this plan")
  return status === 400 || status === 403 || status === 404;
}

async function readOne(kind: RuntimeKind, o: OwnerRead, input: ReadInput): Promise<void> {
  try {
    o.live.set(
      kind.def.key,
      await kind.runtime.read({ client: input.client, owner: o.owner, auth: input.auth }),
    );
  } catch (err) {
    if (input.strict || !skippable(err)) throw err;
    o.failed.set(kind.def.key, (err as Error).message);
  }
}

async function readZone(name: string, input: ReadInput): Promise<OwnerRead | string> {
  const ref = { scope: 'zone' as const, name, id: '' };
  const zone = await input.ownerKind.runtime.read({ client: input.client, owner: ref, auth: input.auth });
  const of = input.ownerKind.runtime.ownerKind!;
  const id = of.ownerIdOf(zone);
  if (!id) return name;
  const o: OwnerRead = {
    owner: { scope: 'zone', name, id, info: of.ownerInfoOf?.(zone) },
    live: new Map(),
    failed: new Map(),
  };
  await Promise.all(input.kinds.filter((k) => k.def.scope === 'zone').map((k) => readOne(k, o, input)));
  return o;
}

async function readAccount(id: string, input: ReadInput): Promise<OwnerRead> {
  const o: OwnerRead = { owner: { scope: 'account', name: id, id }, live: new Map(), failed: new Map() };
  await Promise.all(input.kinds.filter((k) => k.def.scope === 'account').map((k) => readOne(k, o, input)));
  return o;
}

/** Reads every owner in the order given; a zone the target does not have is an error naming it. */
export async function readOwners(input: ReadInput): Promise<OwnerRead[]> {
  const jobs: (() => Promise<OwnerRead | string>)[] = [
    ...input.accounts.map((a) => () => readAccount(a, input)),
    ...input.zones.map((z) => () => readZone(z, input)),
  ];
  const results: (OwnerRead | string)[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  const limit = Math.max(1, input.concurrency ?? 4);
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  const missing = results.filter((r): r is string => typeof r === 'string');
  if (missing.length > 0) {
    throw new UserError(
      `${missing.length === 1 ? 'zone' : 'zones'} not found on the target: ${missing.join(', ')} ` +
        '(check the name and that the credentials reach it)',
    );
  }
  return results as OwnerRead[];
}
