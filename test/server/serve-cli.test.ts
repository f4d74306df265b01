// The real CLI as a child process (signals are the point): prints its line and the dev token, serves,
// stops on SIGTERM.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { spawnZoneplan } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serve(args: string[]) {
  const child = spawnZoneplan(['serve', ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    // without fixtures the dev token and the default account follow the listening line
    const check = () =>
      /default account: \w+\n/.test(stdout) || (args.includes('--fixtures') && /listening.*\n/.test(stdout))
        ? resolve()
        : undefined;
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  ready.catch(() => {}); // awaited by the tests that expect a start
  return { child, ready, exited, out: () => stdout, err: () => stderr };
}

describe('zoneplan serve', () => {
  it('prints the URL and the dev token, serves, and stops cleanly on SIGTERM', async () => {
    const db = join(dir, 'sub', 'local.db');
    const s = serve(['--port', '0', '--db', db]);
    await s.ready;
    const m = /^zoneplan API listening on (http:\/\/127\.0\.0\.1:(\d+)\/client\/v4)$/m.exec(s.out());
    expect(m).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThan(0);
    const token = /^.*token.*: (\S+)$/m.exec(s.out())![1];
    const res = await fetch(`${m![1]}/accounts`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).result).toHaveLength(1);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.err()).toMatch(/stopped; database closed/);
  });

  it('refuses a bad port with one clear line', async () => {
    const s = serve(['--port', 'abc', '--db', ':memory:']);
    expect(await s.exited).toBe(1);
    expect(s.err()).toMatch(/--port must be a port number/);
  });

  it('leaves all or nothing of a batch when killed with SIGKILL in the middle of it', async () => {
    const db = join(dir, 'killed.db');
    const fixtures = join(dir, 'kill-fixtures.yaml');
    writeFileSync(
      fixtures,
      'zones: [{ name: kill.test, plan: enterprise, records: [{ name: "@", type: A, content: 192.0.2.1 }] }]\n' +
        'tokens: [{ value: kill-token-00000001 }]\n',
    );
    const s = serve(['--port', '0', '--db', db, '--fixtures', fixtures]);
    await s.ready;
    const url = /listening on (\S+)/.exec(s.out())![1];
    const h = { authorization: 'Bearer kill-token-00000001', 'content-type': 'application/json' };
    const zone = ((await (await fetch(`${url}/zones`, { headers: h })).json()) as any).result[0].id as string;
    const posts = Array.from({ length: 3500 }, (_, i) => ({
      type: 'TXT',
      name: `k${i}`,
      content: 'x'.repeat(200),
    }));
    // the kill lands while the batch is being received, parsed, written or answered; whichever it is,
    // the store must hold all 3,500 records or none
    const request = fetch(`${url}/zones/${zone}/dns_records/batch`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ posts }),
    }).catch(() => null);
    setTimeout(() => s.child.kill('SIGKILL'), 30);
    await request;
    await s.exited;
    const after = await startServer({ db, quiet: true });
    const n = (
      after.db.prepare("SELECT COUNT(*) AS n FROM dns_records WHERE type = 'TXT'").get() as { n: number }
    ).n;
    expect([0, 3500]).toContain(n);
    await after.close();
  });
});

describe('graceful stop', () => {
  it('finishes a request in flight before closing', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((r) => (arrived = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = await startServer({
      db: join(dir, 'graceful.db'),
      quiet: true,
      areas: [
        {
          name: 'slow_test_area',
          routes(router) {
            router.add({
              method: 'GET',
              path: '/slow',
              area: 'public',
              handler: async () => {
                arrived();
                await gate;
                return { result: { done: true } };
              },
            });
          },
        },
      ],
    });
    const pending = fetch(`${s.url}/slow`);
    await inFlight;
    const closed = s.close();
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).result).toEqual({ done: true });
    await closed;
    expect(s.db.open).toBe(false);
  });
});
