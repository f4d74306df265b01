/**
 * `zoneplan export` on values that used to break the round trip, end to end with the CLI (in-process)
 * against the real local API: a null MX (content `.`, normalised to ''), live text holding a literal
 * `${env:...}` (which the loader would otherwise resolve), a `${env:` the file cannot spell, and
 * the command's input errors (an account the credentials do not reach, a kind without an owner).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { runCli, type CliResult as Run } from '../support/cli.js';

const ACCOUNT = 'ed9ed9ed9ed9ed9ed9ed9ed9ed9ed9ed';
const TOKEN = 'export-edge-token-0123456789abcdef';
const ZONE = 'edge.example';
/** set for every run: a `${env:HOME}` read as a reference would become this */
const HOME = '/home/should-not-appear';

let dir: string;
let server: RunningServer;
let zoneId: string;

function cli(args: string[]): Promise<Run> {
  return runCli([...args, '--api-url', server.url], { cwd: dir, env: { CLOUDFLARE_API_TOKEN: TOKEN, HOME } });
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const env = (await res.json()) as { success: boolean; result: T };
  if (!env.success) throw new Error(`${method} ${path}: ${JSON.stringify(env)}`);
  return env.result;
}

type LiveRecord = { id: string; name: string; type: string; content: string; comment: string | null };
const txt = async (name: string) =>
  (await api<LiveRecord[]>('GET', `/zones/${zoneId}/dns_records?per_page=500`)).find(
    (r) => r.name === `${name}.${ZONE}` && r.type === 'TXT',
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zp-export-edge-'));
  server = await startServer({
    db: join(dir, 'api.db'),
    quiet: true,
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Edge Corp' }],
      zones: [{ name: ZONE, account: ACCOUNT, plan: 'business' }],
      tokens: [{ name: 'edge', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
    },
  });
  zoneId = (await api<{ id: string }[]>('GET', `/zones?name=${ZONE}`))[0].id;
  const add = (r: Record<string, unknown>) => api('POST', `/zones/${zoneId}/dns_records`, r);
  await add({ name: ZONE, type: 'A', content: '192.0.2.1' });
  await add({ name: `mx0.${ZONE}`, type: 'MX', content: '.', priority: 0 }); // RFC 7505 null MX
  await add({
    name: `lit.${ZONE}`,
    type: 'TXT',
    content: '${env:HOME}',
    comment: 'kept as ${env:HOME}, and $${env:X} too',
    tags: ['ref:${env:HOME}'],
  });
  await add({ name: `open.${ZONE}`, type: 'TXT', content: 'x ${env:abc' });
  await api('POST', `/zones/${zoneId}/logpush/jobs`, {
    name: 'env-like',
    dataset: 'http_requests',
    destination_conf: 'https://collector.example.com/${env:HOME}?region=eu',
    filter: JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'eq', value: '${env:HOME}' } }),
  });
}, 30_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('export round trips', () => {
  let file: string;
  let text: string;

  beforeAll(async () => {
    file = join(dir, 'edge.yaml');
    const run = await cli(['export', '--zone', ZONE, '--out', file]);
    expect(run.code, run.stderr).toBe(0);
    text = readFileSync(file, 'utf8');
  }, 30_000);

  it('writes a null MX as `.`, and validate and plan accept the whole file', async () => {
    const doc = parse(text) as { zones: { dns: { records: Record<string, unknown>[] } }[] };
    expect(doc.zones[0].dns.records).toContainEqual({
      name: 'mx0',
      type: 'MX',
      content: '.',
      priority: 0,
      ttl: 'auto',
    });
    const validate = await cli(['validate', file]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    const plan = await cli(['plan', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout + plan.stderr).not.toContain(HOME);
  }, 30_000);

  it('escapes a literal `${env:` in DNS content, comments, tags and Logpush values', () => {
    expect(text).toContain(`content: '$\${env:HOME}'`);
    expect(text).toContain(`comment: 'kept as $\${env:HOME}, and $$\${env:X} too'`);
    expect(text).toContain(`'ref:$\${env:HOME}'`);
    expect(text).toContain('https://collector.example.com/$${env:HOME}?region=eu');
    expect(text).toMatch(/value: '\$\$\{env:HOME\}'/);
  });

  it('keeps out, as a valid ignore entry, a value with an unclosed `${env:`', () => {
    const doc = parse(text) as { zones: { dns: { ignore: Record<string, unknown>[] } }[] };
    expect(doc.zones[0].dns.ignore).toEqual([{ name: 'open', type: 'TXT', content: 'x ?{env:abc' }]);
    expect(text).toContain('no closing `}`');
  });

  it('apply of the export writes the literal text back, not the variable', async () => {
    const lit = (await txt('lit'))!;
    await api('DELETE', `/zones/${zoneId}/dns_records/${lit.id}`);
    const apply = await cli(['apply', file, '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const back = (await txt('lit'))!;
    expect(back.content).toBe('${env:HOME}');
    expect(back.comment).toBe('kept as ${env:HOME}, and $${env:X} too');
    expect((await txt('open'))!.content).toBe('x ${env:abc'); // ignored: left alone
  }, 30_000);
});

describe('export input errors and partial exports', () => {
  it('refuses an account the credentials do not reach, like an unknown zone', async () => {
    const run = await cli(['export', '--account', 'f'.repeat(32)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`account not found on the target: ${'f'.repeat(32)}`);
    expect(run.stdout).toBe('');
  });

  it('refuses kinds that have no owner to read them from', async () => {
    const lb = await cli(['export', '--zone', ZONE, '--kinds', 'load_balancing']);
    expect(lb.code).toBe(1);
    expect(lb.stderr).toContain(
      '--kinds load_balancing: account-level configuration; name the account with --account ID',
    );
    expect(lb.stderr).not.toContain('target:'); // refused before any target is chosen
    const dns = await cli(['export', '--account', ACCOUNT, '--kinds', 'dns']);
    expect(dns.code).toBe(1);
    expect(dns.stderr).toContain('--kinds dns: exported per zone; name one with --zone NAME');
  });

  it('says in the header when the file holds only some kinds', async () => {
    const partial = await cli(['export', '--zone', ZONE, '--kinds', 'dns']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.stdout).toContain('# Only the kinds listed were exported');
    const full = await cli(['export', '--zone', ZONE]);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).not.toContain('Only the kinds listed');
  }, 30_000);

  it('exports an account it reaches', async () => {
    const run = await cli(['export', '--account', ACCOUNT]);
    expect(run.code, run.stderr).toBe(0);
    expect(parse(run.stdout)).toMatchObject({ accounts: [{ id: ACCOUNT, load_balancing: {} }] });
  });
});
