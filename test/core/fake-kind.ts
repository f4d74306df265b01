/**
 * An in-memory kind for testing the core (plan engine, apply engine, plan files, renderers)
 * without HTTP: `items` under a zone, `{ name: value }` pairs. Its store plays the API; switches
 * make it fail a write or report an unknown outcome (having done the write, or not).
 */
import type { DesiredState } from '../../src/config/model.js';
import type { KindDefinition } from '../../src/core/kind.js';
import type { LiveState, RuntimeKind } from '../../src/core/plan.js';
import type { KindRuntime, StepDraft, StepResult } from '../../src/core/runtime.js';

export type Items = Record<string, string>;

export interface FakeStore {
  zones: Map<string, { id: string; items: Items }>;
  writes: string[];
  failOn?: string;
  unknownOn?: { name: string; applied: boolean; times: number };
  /** like kinds that write one at a time: after an unknown outcome the rest of the group is not-run */
  stopAtUnknown?: boolean;
}

export function fakeStore(zones: Record<string, Items | null>): FakeStore {
  const m = new Map<string, { id: string; items: Items }>();
  for (const [name, items] of Object.entries(zones))
    if (items) m.set(name, { id: `id-${name}`, items: { ...items } });
  return { zones: m, writes: [] };
}

export function fakeKinds(store: FakeStore): RuntimeKind[] {
  const zoneRuntime: KindRuntime<Record<string, unknown>, { id: string } | null> = {
    ownerKind: { ownerIdOf: (l) => l?.id },
    read: async (ctx) => {
      const z = store.zones.get(ctx.owner.name);
      return z ? { id: z.id } : null;
    },
    plan: (_entry, live, ctx) =>
      live
        ? []
        : [
            {
              key: 'zone',
              action: 'create',
              address: `zone ${ctx.owner.name}`,
              before: null,
              after: { name: ctx.owner.name },
            },
          ],
    apply: async (steps, ctx) =>
      steps.map((s) => {
        store.zones.set(ctx.owner.name, { id: `id-${ctx.owner.name}`, items: {} });
        store.writes.push(`create zone ${ctx.owner.name}`);
        return { id: s.id, status: 'done', ownerId: `id-${ctx.owner.name}` } as StepResult;
      }),
  };
  const itemsRuntime: KindRuntime<{ items: Items; irreversible?: string[] }, Items> = {
    read: async (ctx) => ({ ...(store.zones.get(ctx.owner.name)?.items ?? {}) }),
    plan: (desired, live = {}) => {
      const drafts: StepDraft[] = [];
      const want = desired?.items ?? {};
      for (const name of Object.keys(want).sort()) {
        if (!(name in live))
          drafts.push({
            key: `create:${name}`,
            action: 'create',
            address: name,
            before: null,
            after: { name, value: want[name] },
          });
        else if (live[name] !== want[name]) {
          drafts.push({
            key: name,
            action: 'update',
            address: name,
            before: { name, value: live[name] },
            after: { name, value: want[name] },
          });
        }
      }
      for (const name of Object.keys(live).sort()) {
        if (!(name in want))
          drafts.push({
            key: name,
            action: 'delete',
            address: name,
            before: { name, value: live[name] },
            after: null,
          });
      }
      for (const d of drafts) {
        const name = (d.after ?? d.before) as { name: string };
        if (desired?.irreversible?.includes(name.name)) d.irreversible = true;
        // `b-*` items depend on `a-*` items of the same suffix, to test ordering
        if (name.name.startsWith('b-')) {
          const dep = drafts.find(
            (x) => ((x.after ?? x.before) as { name: string }).name === 'a-' + name.name.slice(2),
          );
          if (dep) d.dependsOn = [dep.key];
        }
      }
      return drafts;
    },
    apply: async (steps, ctx) => {
      const z = store.zones.get(ctx.owner.name)!;
      let stopped = false;
      return steps.map((s) => {
        if (stopped) return { id: s.id, status: 'not-run', error: 'stopped after an unknown outcome' };
        const rec = (s.after ?? s.before) as { name: string; value?: string };
        if (store.failOn === rec.name) return { id: s.id, status: 'failed', error: `refused ${rec.name}` };
        const u = store.unknownOn;
        if (u && u.name === rec.name && u.times > 0) {
          u.times--;
          if (u.applied) z.items[rec.name] = rec.value!;
          stopped = store.stopAtUnknown === true;
          return { id: s.id, status: 'unknown', error: 'timeout' };
        }
        if (s.action === 'delete') delete z.items[rec.name];
        else z.items[rec.name] = rec.value!;
        store.writes.push(`${s.action} ${ctx.owner.name} ${rec.name}`);
        return { id: s.id, status: 'done' };
      });
    },
    liveCount: (live) => Object.keys(live ?? {}).length,
  };
  const zoneDef: KindDefinition = { key: '', scope: 'zone', runtime: zoneRuntime };
  const itemsDef: KindDefinition = { key: 'items', scope: 'zone', runtime: itemsRuntime };
  return [
    { name: 'zone', def: zoneDef, runtime: zoneRuntime as KindRuntime },
    { name: 'items', def: itemsDef, runtime: itemsRuntime as KindRuntime },
  ];
}

export function fakeDesired(zones: Record<string, { items: Items; irreversible?: string[] }>): DesiredState {
  return {
    version: 1,
    source: { files: ['test.yaml'], sha256: 'x' },
    accounts: [],
    zones: Object.entries(zones).map(
      ([name, v], i) => ({ name, account: 'acct', path: `zones[${i}]`, items: v }) as never,
    ),
    locations: new Map(),
  };
}

/** Reads the fake live state through the real read phase. */
export async function readFake(desired: DesiredState, kinds: RuntimeKind[]): Promise<LiveState> {
  const { readLive } = await import('../../src/core/read.js');
  return readLive(desired, kinds, {
    request: async () => ({ status: 200, result: null, messages: [] }) as never,
  });
}
