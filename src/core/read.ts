/**
 * The reading end: resolves the owners of the file (zones through the owner kind, accounts by id)
 * and asks every kind that takes part for its live state. Owners are read in parallel, as many at
 * a time as the client has requests in flight (its cap is what limits); the client enforces the
 * request budget. The owner kind may find many owners at once
 * (`readMany`: the zone list in pages) before the per-owner reads; the requests made are counted
 * so that the plan can show them beside its apply estimate.
 */
import type { Auth } from '../client/types.js';
import type { DesiredState } from '../config/model.js';
import { UserError } from '../errors.js';
import { desiredValueOf, kindApplies, type LiveState, type OwnerLive, type RuntimeKind } from './plan.js';
import type { OwnerRef, Requester } from './runtime.js';

/** A Requester that counts the requests sent through it (every method). */
export interface CountingRequester extends Requester {
  readonly requests: number;
}

export function countRequests(client: Requester): CountingRequester {
  let requests = 0;
  return {
    get requests() {
      return requests;
    },
    request(method, path, options) {
      requests++;
      return client.request(method, path, options);
    },
  };
}

/** The owners of the file, in file order: accounts first, then zones (names lower case). */
export function ownersOf(desired: DesiredState): OwnerLive[] {
  const owners: OwnerLive[] = [];
  for (const a of desired.accounts) {
    owners.push({
      owner: { scope: 'account', name: a.id, id: a.id },
      entry: a as unknown as Record<string, unknown>,
      live: new Map(),
    });
  }
  for (const z of desired.zones) {
    owners.push({
      owner: { scope: 'zone', name: z.name.toLowerCase().replace(/\.$/, '') },
      entry: z as unknown as Record<string, unknown>,
      live: new Map(),
    });
  }
  return owners;
}

/**
 * With only an e-mail/key pair, areas that accept only a token fail before any request is made,
 * saying which (the API would refuse them halfway through a run).
 */
export function checkAuthFor(desired: DesiredState, kinds: RuntimeKind[], auth: Auth | undefined): void {
  if (auth?.kind !== 'key') return;
  const needed = new Set<string>();
  for (const o of ownersOf(desired)) {
    for (const k of kinds) if (k.runtime.requiresToken && kindApplies(k, o)) needed.add(k.def.key || k.name);
  }
  if (needed.size > 0) {
    throw new UserError(
      `${[...needed].sort().join(', ')} ${needed.size === 1 ? 'needs' : 'need'} an API token, but only ` +
        'CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY are set; set CLOUDFLARE_API_TOKEN',
    );
  }
}

/**
 * Reads one owner: the owner kind first (learning the id), then every other kind that applies.
 * `ownerKnown`: the owner kind's live value is in `o.live` already (found by `readMany`).
 */
export async function readOwner(
  o: OwnerLive,
  kinds: RuntimeKind[],
  client: Requester,
  auth?: Auth,
  only?: Set<string>,
  ownerKnown = false,
): Promise<void> {
  for (const k of kinds) {
    if (ownerKnown || !k.runtime.ownerKind || k.def.scope !== o.owner.scope) continue;
    if (only && !only.has(k.name)) continue;
    const live = await k.runtime.read({ client, owner: { ...o.owner, id: o.owner.id ?? '' }, auth });
    o.live.set(k.name, live);
    o.owner.id = k.runtime.ownerKind.ownerIdOf(live);
    o.owner.info = k.runtime.ownerKind.ownerInfoOf?.(live);
  }
  const id = o.owner.id;
  if (!id) return;
  const others = kinds.filter(
    (k) => !k.runtime.ownerKind && kindApplies(k, o) && (!only || only.has(k.name)),
  );
  const values = await Promise.all(
    others.map((k) =>
      k.runtime.read({
        client,
        owner: { ...(o.owner as OwnerRef), id },
        auth,
        desired: desiredValueOf(k, o.entry),
      }),
    ),
  );
  others.forEach((k, i) => o.live.set(k.name, values[i]));
}

export async function readLive(
  desired: DesiredState,
  kinds: RuntimeKind[],
  client: Requester,
  options: {
    auth?: Auth;
    /** owners read at once: the client's cap on requests in flight, so the cap is what limits */
    concurrency?: number;
    /** called as each owner is read, with the count read and the total */
    onOwnerRead?(done: number, total: number): void;
  } = {},
): Promise<LiveState> {
  const counted = countRequests(client);
  const owners = ownersOf(desired);
  const known = await readOwnersAtOnce(owners, kinds, counted, options.auth);
  const limit = Math.max(1, options.concurrency ?? 4);
  let next = 0;
  let done = 0;
  options.onOwnerRead?.(0, owners.length);
  const worker = async () => {
    while (next < owners.length) {
      const o = owners[next++];
      await readOwner(o, kinds, counted, options.auth, undefined, known.has(o));
      options.onOwnerRead?.(++done, owners.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, owners.length) }, worker));
  return { owners, requests: counted.requests };
}

/**
 * Asks each owner kind with `readMany` for the owners of its scope, and records those it found as
 * `read` would have (live value, id, info). Returns the owners found.
 */
async function readOwnersAtOnce(
  owners: OwnerLive[],
  kinds: RuntimeKind[],
  client: Requester,
  auth?: Auth,
): Promise<Set<OwnerLive>> {
  const known = new Set<OwnerLive>();
  for (const k of kinds) {
    const ownerKind = k.runtime.ownerKind;
    if (!ownerKind?.readMany) continue;
    const mine = owners.filter((o) => o.owner.scope === k.def.scope);
    if (mine.length === 0) continue;
    const found = await ownerKind.readMany({ client, owners: mine, auth });
    for (const o of mine) {
      if (!found.has(o.owner.name)) continue;
      const live = found.get(o.owner.name);
      o.live.set(k.name, live);
      o.owner.id = ownerKind.ownerIdOf(live);
      o.owner.info = ownerKind.ownerInfoOf?.(live);
      known.add(o);
    }
  }
  return known;
}
