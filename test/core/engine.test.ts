/**
 * The core on an in-memory kind: plan (ids, order, owner dependencies, safety), apply (order,
 * failure stop, unknown outcomes, irreversible steps, read-back, journal), saved plans and
 * renderers. A second plan after apply must be empty.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/core/apply.js';
import { openJournal } from '../../src/core/journal.js';
import { readPlanFile, staleReasons, writePlanFile } from '../../src/core/plan-file.js';
import { buildPlan } from '../../src/core/plan.js';
import { renderJson } from '../../src/core/render-json.js';
import { renderMarkdown } from '../../src/core/render-markdown.js';
import { renderText } from '../../src/core/render-text.js';
import { clearSecrets, registerSecret } from '../../src/redact.js';
import { fakeDesired, fakeKinds, fakeStore, readFake, type FakeStore } from './fake-kind.js';

const noClient = { request: async () => ({ status: 200, result: null, messages: [] }) as never };

async function planFor(store: FakeStore, desired: ReturnType<typeof fakeDesired>) {
  const kinds = fakeKinds(store);
  const live = await readFake(desired, kinds);
  return { kinds, live, plan: buildPlan(desired, live, kinds) };
}

async function run(
  store: FakeStore,
  desired: ReturnType<typeof fakeDesired>,
  opts: Record<string, unknown> = {},
) {
  const { kinds, live, plan } = await planFor(store, desired);
  const report = await applyPlan(plan, { client: noClient, kinds, desired, live, ...opts });
  return { plan, report };
}

afterEach(() => clearSecrets());

describe('plan', () => {
  it('creates a missing zone first and orders dependants after their dependencies', async () => {
    const store = fakeStore({});
    const desired = fakeDesired({ 'new.test': { items: { 'b-1': 'x', 'a-1': 'y', c: 'z' } } });
    const { plan } = await planFor(store, desired);
    expect(plan.steps.map((s) => s.id)).toEqual([
      'new.test/zone/zone',
      'new.test/items/create:a-1',
      'new.test/items/create:b-1',
      'new.test/items/create:c',
    ]);
    expect(plan.steps[2].dependsOn).toEqual(['new.test/items/create:a-1', 'new.test/zone/zone']);
  });

  it('field-level changes and fingerprints of the live object', async () => {
    const store = fakeStore({ 'a.test': { x: '1' } });
    const { plan } = await planFor(store, fakeDesired({ 'a.test': { items: { x: '2' } } }));
    expect(plan.steps[0].changes).toEqual([{ path: 'value', before: '1', after: '2' }]);
    expect(plan.steps[0].fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('needs --force above 30% of 10+ objects updated or deleted, not at 30%', async () => {
    const items = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v']));
    const keep = (n: number) => Object.fromEntries(Object.entries(items).slice(n));
    expect(
      (await planFor(fakeStore({ 'a.test': items }), fakeDesired({ 'a.test': { items: keep(3) } }))).plan
        .guards,
    ).toEqual([]);
    const { plan } = await planFor(
      fakeStore({ 'a.test': items }),
      fakeDesired({ 'a.test': { items: keep(4) } }),
    );
    expect(plan.guards[0].message).toContain('4 of 10');
  });
});

describe('apply', () => {
  it('applies everything and a second plan is empty', async () => {
    const store = fakeStore({ 'a.test': { old: '1', x: '1' } });
    const desired = fakeDesired({
      'a.test': { items: { x: '2', y: '3' } },
      'new.test': { items: { z: '1' } },
    });
    const { report } = await run(store, desired);
    expect(report.ok).toBe(true);
    expect(report.readBack).toEqual([]);
    expect((await planFor(store, desired)).plan.steps).toEqual([]);
  });

  it('stops on failure, names what was not done, keeps a journal, and a rerun converges', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zp-journal-'));
    const store = fakeStore({ 'a.test': {} });
    store.failOn = 'a-1';
    const desired = fakeDesired({ 'a.test': { items: { 'a-1': 'x', 'b-1': 'y' } } });
    const { report } = await run(store, desired, { journal: openJournal(dir), parallelism: 1 });
    expect(report.failed.map((f) => f.error)).toEqual(['refused a-1']);
    expect(report.notRun.map((s) => s.address)).toEqual(['b-1']);
    const lines = readFileSync(join(dir, readdirSync(dir)[0]), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.event)).toEqual([
      'run-started',
      'step-started',
      'step-failed',
      'step-not-run',
      'run-finished',
    ]);
    store.failOn = undefined;
    expect((await run(store, desired)).report.ok).toBe(true);
    expect((await planFor(store, desired)).plan.steps).toEqual([]);
  });

  it('an unknown outcome that did happen is resolved by a re-read, never repeated', async () => {
    const store = fakeStore({ 'a.test': {} });
    store.unknownOn = { name: 'x', applied: true, times: 1 };
    const { report } = await run(store, fakeDesired({ 'a.test': { items: { x: '1' } } }));
    expect(report.ok).toBe(true);
    expect(report.resolved.map((s) => s.address)).toEqual(['x']);
    expect(store.writes.filter((w) => w.includes(' x'))).toEqual([]);
  });

  it('an unknown outcome that did not happen is run again once', async () => {
    const store = fakeStore({ 'a.test': {} });
    store.unknownOn = { name: 'x', applied: false, times: 1 };
    const { report } = await run(store, fakeDesired({ 'a.test': { items: { x: '1' } } }));
    expect(report.ok).toBe(true);
    expect(store.writes).toEqual(['create a.test x']);
  });

  it('an outcome unknown several times in a row is re-read and re-planned each time', async () => {
    const store = fakeStore({ 'a.test': {} });
    store.unknownOn = { name: 'x', applied: false, times: 4 };
    const { report } = await run(store, fakeDesired({ 'a.test': { items: { x: '1' } } }));
    expect(report.ok).toBe(true);
    expect(store.writes).toEqual(['create a.test x']);
  });

  it('gives up on an outcome that stays unknown, after a bounded number of attempts', async () => {
    const store = fakeStore({ 'a.test': {} });
    store.unknownOn = { name: 'x', applied: false, times: 1000 };
    const { report } = await run(store, fakeDesired({ 'a.test': { items: { x: '1' } } }));
    expect(report.ok).toBe(false);
    expect(report.failed.map((f) => f.error)).toEqual([
      'timeout (still unknown after 6 attempts, each followed by a re-read)',
    ]);
    expect(store.unknownOn.times).toBe(1000 - 6);
  });

  it('steps a kind did not start after an unknown outcome are run, not left behind', async () => {
    const store = fakeStore({ 'a.test': {} });
    store.unknownOn = { name: 'a', applied: false, times: 1 };
    store.stopAtUnknown = true;
    const desired = fakeDesired({ 'a.test': { items: { a: '1', c: '2', d: '3' } } });
    const { report } = await run(store, desired);
    expect(report.ok).toBe(true);
    expect(report.notRun).toEqual([]);
    expect(store.writes.sort()).toEqual(['create a.test a', 'create a.test c', 'create a.test d']);
  });

  it('skips irreversible steps and their dependants without --allow-irreversible', async () => {
    const store = fakeStore({ 'a.test': {} });
    const desired = fakeDesired({
      'a.test': { items: { 'a-1': 'x', 'b-1': 'y', c: 'z' }, irreversible: ['a-1'] },
    });
    const { report } = await run(store, desired);
    expect(report.skipped.map((s) => s.address)).toEqual(['a-1', 'b-1']);
    expect(report.done.map((s) => s.address)).toEqual(['c']);
    expect(report.readBack).toEqual([]);
    expect((await run(store, desired, { allowIrreversible: true })).report.ok).toBe(true);
  });
});

describe('saved plans and renderers', () => {
  it('a saved plan is stale when a live object it was made from moved, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zp-plan-'));
    const store = fakeStore({ 'a.test': { x: '1', y: '1' } });
    const desired = fakeDesired({ 'a.test': { items: { x: '2', y: '2' } } });
    const { plan } = await planFor(store, desired);
    // the files a saved plan names must be there, inside its directory, as regular files
    writeFileSync(join(dir, 'f.yaml'), 'version: 1\n');
    writePlanFile(join(dir, 'p.json'), plan, {
      target: 't',
      cwd: dir,
      paths: [join(dir, 'f.yaml')],
      files: [join(dir, 'f.yaml')],
      sha256s: ['0'.repeat(64)],
    });
    const saved = readPlanFile(join(dir, 'p.json'), dir);
    expect(saved.desired.file).toBe('f.yaml');
    expect(staleReasons(saved, (await planFor(store, desired)).plan)).toEqual([]);
    store.zones.get('a.test')!.items.y = '9';
    expect(staleReasons(saved, (await planFor(store, desired)).plan)).toEqual([
      'a.test items y: the live object changed since the plan was made',
    ]);
  });

  it('text, json and markdown show the changes and never a secret', async () => {
    registerSecret('s3cr3t-value-123', '(from env SECRET)');
    const store = fakeStore({ 'a.test': { x: '1', gone: '1' } });
    const { plan } = await planFor(
      store,
      fakeDesired({ 'a.test': { items: { x: 's3cr3t-value-123', n: '1' } } }),
    );
    const text = renderText(plan);
    expect(text).toContain('+ create n');
    expect(text).toContain('~ update x');
    expect(text).toContain('value: "1" -> "(from env SECRET)"');
    expect(text).toContain('- delete gone');
    expect(text).toContain('Plan: 1 to create, 1 to update, 1 to delete (about 3 API calls).');
    const json = JSON.parse(renderJson(plan, 'target'));
    expect(json.summary).toMatchObject({ create: 1, update: 1, delete: 1, api_calls: 3 });
    expect(renderMarkdown(plan, 'target')).toContain('| `~` update | items | `x` |');
    for (const out of [text, renderJson(plan, 't'), renderMarkdown(plan, 't')])
      expect(out).not.toContain('s3cr3t');
  });
});
