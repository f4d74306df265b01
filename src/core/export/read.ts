/**
 * The reading end of `export`: the owners (zones by name through the owner kind, accounts by id)
 * and, per owner, each selected kind's live state through the kind's own runtime `read`, so the
 * export sees exactly what `plan` sees. Owners are read a few at a time; the client enforces the
 * request budget.
 */
import type { Auth } from '../../client/types.js';
import type { RuntimeKind } from '../plan.js';
import type { OwnerRef, Requester } from '../runtime.js';
import { UserError } from '../../errors.js';

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

/** An owner the target does not have (or the credentials do not reach). */
interface Missing {
  scope: 'zone' | 'account';
  name: string;
  reason?: string;
}

async function readZone(name: string, input: ReadInput): Promise<OwnerRead | Missing> {
  const ref = { scope: 'zone' as const, name, id: '' };
  const zone = await input.ownerKind.runtime.read({ client: input.client, owner: ref, auth: input.auth });
  const of = input.ownerKind.runtime.ownerKind!;
  const id = of.ownerIdOf(zone);
  if (!id) return { scope: 'zone', name };
  const o: OwnerRead = {
    owner: { scope: 'zone', name, id, info: of.ownerInfoOf?.(zone) },
    live: new Map(),
    failed: new Map(),
  };
  await Promise.all(input.kinds.filter((k) => k.def.scope === 'zone').map((k) => readOne(k, o, input)));
  return o;
}

/**
 * An account has no owner object to look up the way a zone does, so it counts as not found when
 * every kind read from it was refused (an id the credentials do not reach answers 403 or 404 to
 * each): an export holding only `- id: ...` would otherwise exit 0 and say nothing was wrong.
 */
async function readAccount(id: string, input: ReadInput): Promise<OwnerRead | Missing> {
  const o: OwnerRead = { owner: { scope: 'account', name: id, id }, live: new Map(), failed: new Map() };
  await Promise.all(input.kinds.filter((k) => k.def.scope === 'account').map((k) => readOne(k, o, input)));
  if (o.live.size === 0 && o.failed.size > 0) {
    return { scope: 'account', name: id, reason: [...o.failed.values()][0] };
  }
  return o;
}

/** Reads every owner in the order given; an owner the target does not have is an error naming it. */
export async function readOwners(input: ReadInput): Promise<OwnerRead[]> {
  const jobs: (() => Promise<OwnerRead | Missing>)[] = [
    ...input.accounts.map((a) => () => readAccount(a, input)),
    ...input.zones.map((z) => () => readZone(z, input)),
  ];
  const results: (OwnerRead | Missing)[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  const limit = Math.max(1, input.concurrency ?? 4);
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  const missing = results.filter((r): r is Missing => !('owner' in r));
  if (missing.length > 0) {
    const lines = (['zone', 'account'] as const).flatMap((scope) => {
      const here = missing.filter((m) => m.scope === scope);
      if (here.length === 0) return [];
      const names = here.map((m) => (m.reason ? `${m.name} (${m.reason})` : m.name)).join(', ');
      return [`${here.length === 1 ? scope : `${scope}s`} not found on the target: ${names}`];
    });
    const what = missing.some((m) => m.scope === 'zone') ? 'the name' : 'the id';
    throw new UserError(`${lines.join('; ')} (check ${what} and that the credentials reach it)`);
  }
  return results as OwnerRead[];
}
