/**
 * Running clients written for the real API (Debian's python3 packages) against `zoneplan serve`: find
 * a python that has them, start the real CLI on 127.0.0.1:0 over a fixtures file, run a driver script
 * with the API base URL pointed at it. Where python or the packages are missing the tests skip with
 * the reason, except in CI (`CI` set), where `.ci/run` installs them and a missing one is a failure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const BIN = new URL('../../bin/zoneplan.js', import.meta.url).pathname;
export const DRIVERS = new URL('.', import.meta.url).pathname;

/**
 * Debian's packages install into /usr/lib/python3/dist-packages, which only the system python reads
 * (a pyenv or venv `python3` earlier on PATH does not), so /usr/bin/python3 is tried first.
 */
const PYTHONS = ['/usr/bin/python3', 'python3'];

export interface PythonCheck {
  python?: string;
  /** why the tests cannot run here, when they cannot */
  missing?: string;
}

/** A python that imports every module, or the reason none does (naming the Debian packages). */
export function findPython(modules: string[], debianPackages: string[]): PythonCheck {
  for (const py of PYTHONS) {
    const r = spawnSync(py, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8', timeout: 30_000 });
    if (r.status === 0) return { python: py };
  }
  return {
    missing:
      `no python3 here imports ${modules.join(', ')} (tried ${PYTHONS.join(', ')}); ` +
      `install them with: apt-get install -y --no-install-recommends ${debianPackages.join(' ')}`,
  };
}

/** In CI a missing client is an error (the run must not pass without having run these tests). */
export function requireInCi(check: PythonCheck): void {
  if (check.missing && process.env.CI) throw new Error(`CI is set but ${check.missing}`);
  if (check.missing) console.warn(`skipping: ${check.missing}`);
}

export interface Served {
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/** `zoneplan serve --port 0` over a fresh SQLite file and the given fixtures (YAML text). */
export async function serve(fixturesYaml: string): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'zoneplan-clients-'));
  const fixtures = join(dir, 'fixtures.yaml');
  writeFileSync(fixtures, fixturesYaml);
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--db', join(dir, 'local.db'), '--fixtures', fixtures],
    { env: { ...process.env, NO_COLOR: '1' } },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (\S+)/.exec(stdout);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`zoneplan serve exited: ${stderr}`)));
  });
  return {
    url,
    dir,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Credentials {
  token?: string;
  email?: string;
  key?: string;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a driver script with the credentials in ZP_* and the API base in CLOUDFLARE_API_URL (the
 * variable python-cloudflare reads). The caller's own CLOUDFLARE_* / CF_* variables and config files
 * (HOME, the working directory) are kept away, so nothing reaches a real account.
 */
export function runDriver(
  python: string,
  script: string,
  args: string[],
  baseUrl: string,
  creds: Credentials,
  home: string,
): Promise<RunResult> {
  // python-cloudflare falls back to the real API when CLOUDFLARE_API_URL is empty
  if (!baseUrl.startsWith('http://127.0.0.1:')) throw new Error(`not the local API: "${baseUrl}"`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(CLOUDFLARE_|CF_|ZP_|LEXICON_)/.test(k)) env[k] = v;
  Object.assign(env, { HOME: home, CLOUDFLARE_API_URL: baseUrl, PYTHONDONTWRITEBYTECODE: '1' });
  if (creds.token) env.ZP_TOKEN = creds.token;
  if (creds.email) env.ZP_EMAIL = creds.email;
  if (creds.key) env.ZP_KEY = creds.key;
  return new Promise((resolve) => {
    const child = spawn(python, [join(DRIVERS, script), ...args], { env, cwd: home });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * The fixtures a client test starts from: the Clients account, the active zone example.com with
 * the given records (a YAML flow list), a token named after the client and an e-mail/key pair, both
 * with every right; `moreZones` and `moreTokens` add list items a test needs besides.
 */
function clientFixtures(c: {
  client: string;
  token: string;
  email: string;
  key: string;
  records: string;
  moreZones?: string[];
  moreTokens?: string[];
}): string {
  const items = (lines: string[] = []) => lines.map((line) => `  - ${line}\n`).join('');
  return `
accounts:
  - { id: 0123456789abcdef0123456789abcdef, name: Clients }
zones:
  - name: example.com
    account: Clients
    status: active
    records: ${c.records}
${items(c.moreZones)}tokens:
  - { name: ${c.client}, value: ${c.token}, zones: all, accounts: all, permissions: edit }
${items(c.moreTokens)}keys:
  - { email: ${c.email}, key: ${c.key}, zones: all, accounts: all, permissions: edit }
`;
}

/** The two ways a client signs in, as `it.each` rows: the token, then the e-mail and global key. */
function credentialCases(c: Required<Credentials>): [string, Credentials][] {
  return [
    ['an API token', { token: c.token }],
    ['an e-mail and global key', { email: c.email, key: c.key }],
  ];
}

/**
 * What a client's test file starts from: the python that has the client (in CI, one must: see
 * requireInCi), credentials named after the client, the fixtures (clientFixtures) and, called
 * inside the file's describe, the served API for its tests.
 */
export function pythonClient(c: {
  name: string;
  modules: string[];
  debianPackages: string[];
  records: string;
  moreZones?: string[];
  moreTokens?: string[];
}) {
  const check = findPython(c.modules, c.debianPackages);
  requireInCi(check);
  const credentials = {
    token: `${c.name}-token-00000000001`,
    email: `${c.name}@example.com`,
    key: `${c.name}-global-key-00001`,
  };
  const { name, records, moreZones, moreTokens } = c;
  const fixtures = clientFixtures({ client: name, ...credentials, records, moreZones, moreTokens });
  return {
    check,
    credentials,
    cases: credentialCases(credentials),
    useServed: () => useServed(fixtures, credentials.token),
  };
}

export interface ServedBed {
  /** the running `zoneplan serve` (set before the file's tests run) */
  served: Served;
  /** example.com's id */
  zoneId: string;
  /** a GET of the served API with the token; its envelope must say success */
  api<T>(path: string): Promise<T>;
}

/** Serves `fixturesYaml` for the tests of the enclosing describe (started before them, stopped after). */
function useServed(fixturesYaml: string, token: string): ServedBed {
  const bed = {
    async api<T>(path: string): Promise<T> {
      const res = await fetch(bed.served.url + path, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { success: boolean; result: T };
      expect(body.success, path).toBe(true);
      return body.result;
    },
  } as ServedBed;
  beforeAll(async () => {
    bed.served = await serve(fixturesYaml);
    bed.zoneId = (await bed.api<{ id: string }[]>('/zones?name=example.com'))[0].id;
  });
  afterAll(() => bed.served?.stop());
  return bed;
}
