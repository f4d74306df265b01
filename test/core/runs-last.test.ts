/**
 * The engine's `runsLast` (docs/reference/design.md section 4: the WAF migration runs last in a zone) and the read-back after
 * an apply without --allow-irreversible, on in-memory kinds: a `migration` kind that plans a
 * sequence (check, then an irreversible final step; the whole sequence is planned again until the
 * final step is done, as the WAF kind does) beside the fake `items` kind, whose apply is slow so
 * that the two would overlap if nothing ordered them.
 */
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/core/apply.js';
import type { KindDefinition } from '../../src/core/kind.js';
import { buildPlan, type RuntimeKind } from '../../src/core/plan.js';
import type { KindRuntime, StepDraft } from '../../src/core/runtime.js';
import { fakeDesired, fakeKinds, fakeStore, readFake, type FakeStore, type Items } from './fake-kind.js';

const noClient = { request: async () => ({ status: 200, result: null, messages: [] }) as never };

interface MigrationDesired {
  /** mark the steps runsLast (default true) */
  runsLast?: boolean;
  /** also plan a report (a blocker of another sort): it must not hold the migration back */
  report?: boolean;
}
interface MigrationLive {
  checked: boolean;
  complete: boolean;
}

interface Bed {
  store: FakeStore;
  migration: Map<string, MigrationLive>;
  /** what ran, in order: `start <kind> <zone>`, `end <kind> <zone>` */
  timeline: string[];
  /** item names whose stored value the fake API gets wrong (a read-back mismatch) */
  mangle: Set<string>;
  kinds: RuntimeKind[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function bed(zones: Record<string, Items | null>): Bed {
  const store = fakeStore(zones);
  const migration = new Map<string, MigrationLive>();
  const timeline: string[] = [];
  const mangle = new Set<string>();
  const [zoneKind, itemsKind] = fakeKinds(store);
  const itemsApply = itemsKind.runtime.apply.bind(itemsKind.runtime);
  const slowItems: RuntimeKind = {
    ...itemsKind,
    runtime: {
      ...itemsKind.runtime,
      apply: async (steps, ctx) => {
        timeline.push(`start items ${ctx.owner.name}`);
        await sleep(30);
        const results = await itemsApply(steps, ctx);
        const z = store.zones.get(ctx.owner.name)!;
        for (const name of mangle) if (name in z.items) z.items[name] = 'mangled';
        timeline.push(`end items ${ctx.owner.name}`);
        return results;
      },
    },
  };
  const migrationRuntime: KindRuntime<MigrationDesired, MigrationLive> = {
    read: async (ctx) => ({ ...(migration.get(ctx.owner.name) ?? { checked: false, complete: false }) }),
    plan: (desired, live) => {
      if (!desired || !live || live.complete) return [];
      const runsLast = desired.runsLast !== false;
      const drafts: StepDraft[] = [
        // planned again after it ran, while the final step waits (like the WAF migration's check)
        {
          key: 'check',
          action: 'migrate',
          address: 'migration check',
          before: live,
          after: { checked: true },
          runsLast,
        },
        {
          key: 'final',
          action: 'migrate',
          address: 'migration final step',
          before: live,
          after: { complete: true },
          irreversible: true,
          dependsOn: ['check'],
          runsLast,
        },
      ];
      if (desired.report)
        drafts.push({
          key: 'note',
          action: 'report',
          address: 'migration note',
          before: null,
          after: null,
          reason: 'something to see',
        });
      return drafts;
    },
    apply: async (steps, ctx) => {
      timeline.push(`start migration ${ctx.owner.name}`);
      const m = migration.get(ctx.owner.name) ?? { checked: false, complete: false };
      for (const s of steps) {
        if (s.key === 'check') m.checked = true;
        if (s.key === 'final') m.complete = true;
        store.writes.push(`migration ${ctx.owner.name} ${s.key}`);
      }
      migration.set(ctx.owner.name, m);
      timeline.push(`end migration ${ctx.owner.name}`);
      return steps.map((s) => ({ id: s.id, status: 'done' as const }));
    },
  };
  const migrationDef: KindDefinition = { key: 'migration', scope: 'zone', runtime: migrationRuntime };
  // the migration kind is registered before items: without runsLast its steps would rank first
  const kinds: RuntimeKind[] = [
    zoneKind,
    { name: 'migration', def: migrationDef, runtime: migrationRuntime as KindRuntime },
    slowItems,
  ];
  return { store, migration, timeline, mangle, kinds };
}

function desiredFor(zones: Record<string, { items: Items; migration?: MigrationDesired }>) {
  const desired = fakeDesired(
    Object.fromEntries(Object.entries(zones).map(([n, v]) => [n, { items: v.items }])),
  );
  desired.zones.forEach((z) => {
    const m = zones[z.name].migration;
    if (m) Object.assign(z, { migration: m });
  });
  return desired;
}

async function planAndApply(
  b: Bed,
  desired: ReturnType<typeof desiredFor>,
  allowIrreversible = true,
  readBack?: boolean,
) {
  const live = await readFake(desired, b.kinds);
  const plan = buildPlan(desired, live, b.kinds);
  const report = await applyPlan(plan, {
    client: noClient,
    kinds: b.kinds,
    desired,
    live,
    parallelism: 4,
    allowIrreversible,
    readBack,
  });
  return { plan, report };
}

describe('runsLast', () => {
  it('a runsLast step waits for every other step of its zone, of every kind, at plan and apply time', async () => {
    const b = bed({ 'a.test': {} });
    const desired = desiredFor({ 'a.test': { items: { x: '1', y: '2' }, migration: {} } });
    const { plan, report } = await planAndApply(b, desired);
    expect(plan.steps.map((s) => s.id)).toEqual([
      'a.test/items/create:x',
      'a.test/items/create:y',
      'a.test/migration/check',
      'a.test/migration/final',
    ]);
    // the first runsLast step depends on the others; the next one already runs after it
    const check = plan.steps.find((s) => s.key === 'check')!;
    expect(check.dependsOn).toEqual(['a.test/items/create:x', 'a.test/items/create:y']);
    expect(check.orderOnly).toEqual(check.dependsOn);
    expect(plan.steps.find((s) => s.key === 'final')!.dependsOn).toEqual(['a.test/migration/check']);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    // check, then the final step (a group each): both after the items
    expect(b.timeline).toEqual([
      'start items a.test',
      'end items a.test',
      'start migration a.test',
      'end migration a.test',
      'start migration a.test',
      'end migration a.test',
    ]);
    expect(b.store.writes).toEqual([
      'create a.test x',
      'create a.test y',
      'migration a.test check',
      'migration a.test final',
    ]);
  });

  it('without runsLast the same steps run first, beside the slow items (the control)', async () => {
    const b = bed({ 'a.test': {} });
    const desired = desiredFor({ 'a.test': { items: { x: '1' }, migration: { runsLast: false } } });
    const { plan, report } = await planAndApply(b, desired);
    expect(plan.steps[0].id).toBe('a.test/migration/check');
    expect(report.ok).toBe(true);
    expect(b.timeline.indexOf('start migration a.test')).toBeLessThan(b.timeline.indexOf('end items a.test'));
  });

  it('only the same zone: another zone runs in parallel; report steps do not hold it back', async () => {
    const b = bed({ 'a.test': {}, 'b.test': {} });
    const desired = desiredFor({
      'a.test': { items: {}, migration: { report: true } },
      'b.test': { items: { z: '1' } },
    });
    const { plan, report } = await planAndApply(b, desired);
    const check = plan.steps.find((s) => s.id === 'a.test/migration/check')!;
    expect(check.dependsOn).toEqual([]);
    expect(b.timeline.indexOf('start migration a.test')).toBeLessThan(b.timeline.indexOf('end items b.test'));
    // the report is not a step the migration waits for: it ran
    expect(b.migration.get('a.test')).toEqual({ checked: true, complete: true });
    expect(report.ok).toBe(true);
  });

  it('a zone created in the same run: the zone first, the migration after the items', async () => {
    const b = bed({});
    const desired = desiredFor({ 'new.test': { items: { x: '1' }, migration: {} } });
    // the migration plans nothing for a zone that does not exist yet; the items wait for the zone
    const { plan } = await planAndApply(b, desired);
    expect(plan.steps.map((s) => s.id)).toEqual(['new.test/zone/zone', 'new.test/items/create:x']);
    const second = await planAndApply(b, desired);
    expect(second.plan.steps.map((s) => s.key)).toEqual(['check', 'final']);
    expect(second.report.ok).toBe(true);
  });

  it('never makes a cycle with a step that itself depends on a runsLast step', () => {
    const b = bed({ 'a.test': {} });
    const after: RuntimeKind = {
      name: 'after',
      def: { key: 'after', scope: 'zone' },
      runtime: {
        read: async () => null,
        plan: () => [
          {
            key: 'cleanup',
            action: 'update',
            address: 'cleanup after the migration',
            before: { a: 1 },
            after: { a: 2 },
            dependsOn: ['a.test/migration/final'],
          },
          { key: 'other', action: 'update', address: 'other', before: { a: 1 }, after: { a: 2 } },
        ],
        apply: async (steps) => steps.map((s) => ({ id: s.id, status: 'done' as const })),
      },
    };
    const kinds = [...b.kinds, after];
    const desired = desiredFor({ 'a.test': { items: { x: '1' }, migration: {} } });
    Object.assign(desired.zones[0], { after: {} });
    const live = {
      owners: [
        {
          owner: { scope: 'zone' as const, name: 'a.test', id: 'id-a.test' },
          entry: desired.zones[0] as unknown as Record<string, unknown>,
          live: new Map<string, unknown>([
            ['zone', { id: 'id-a.test' }],
            ['items', {}],
            ['migration', { checked: false, complete: false }],
            ['after', null],
          ]),
        },
      ],
    };
    const plan = buildPlan(desired, live, kinds);
    expect(plan.steps.map((s) => s.id)).toEqual([
      'a.test/items/create:x',
      'a.test/after/other',
      'a.test/migration/check',
      'a.test/migration/final',
      'a.test/after/cleanup',
    ]);
    expect(plan.steps.find((s) => s.key === 'check')!.dependsOn).toEqual([
      'a.test/items/create:x',
      'a.test/after/other',
    ]);
  });
});

describe('read-back after an apply without --allow-irreversible', () => {
  it('the skipped final step and the steps it needs first remain, with no read-back error', async () => {
    const b = bed({ 'a.test': {} });
    const desired = desiredFor({ 'a.test': { items: { x: '1' }, migration: {} } });
    const { report } = await planAndApply(b, desired, false);
    expect(report.skipped.map((s) => s.address)).toEqual(['migration final step']);
    expect(report.done.map((s) => s.address)).toEqual(['x', 'migration check']);
    expect(report.readBack).toEqual([]);
    expect(b.migration.get('a.test')).toEqual({ checked: true, complete: false });
    const again = await planAndApply(b, desired);
    expect(again.report.ok).toBe(true);
    expect(b.migration.get('a.test')).toEqual({ checked: true, complete: true });
  });

  it('still reports a mismatch of a step that the skipped one waits for only by runsLast', async () => {
    // an update: the re-plan gives the mismatch the same step id as the step that ran
    const b = bed({ 'a.test': { x: '0' } });
    b.mangle.add('x');
    const desired = desiredFor({ 'a.test': { items: { x: '1' }, migration: {} } });
    const { plan, report } = await planAndApply(b, desired, false);
    expect(plan.steps.find((s) => s.key === 'check')!.dependsOn).toEqual(['a.test/items/x']);
    expect(report.readBack).toEqual([
      'a.test items x: the API stored something other than the plan promised (value)',
    ]);
  });

  it('reads nothing back when the caller plans again itself (readBack: false, a rehearsal)', async () => {
    const b = bed({ 'a.test': { x: '0' } });
    b.mangle.add('x');
    const desired = desiredFor({ 'a.test': { items: { x: '1' }, migration: {} } });
    const { report } = await planAndApply(b, desired, false, false);
    expect(report.done.map((s) => s.address)).toEqual(['x', 'migration check']);
    expect(report.readBack).toEqual([]);
    // what the read-back would have said, the caller's own second plan finds
    const live = await readFake(desired, b.kinds);
    expect(buildPlan(desired, live, b.kinds).steps.map((s) => s.address)).toContain('x');
  });
});
