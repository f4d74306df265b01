/**
 * Paths that are not regular files, through the built CLI: `/dev/zero` and a FIFO as a desired
 * file, a `--var-file`, a fixtures file (of `target.local` and of `serve`), and a file over the size
 * limit are refused at once, before any read (the process neither grows nor waits for a writer);
 * a signal ends the process even while one of node's I/O threads is blocked; a file that is not a
 * map of keys is never quoted; a file with CR-only line ends reads as YAML 1.2 says.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { requireBuild, spawnCli, spawnZoneplan, type CliRun } from '../support/processes.js';
import { tempDir } from '../cli-reconcile/helpers.js';

const ACCOUNT = '5e1f5e1f5e1f5e1f5e1f5e1f5e1f5e1f';
const TOKEN = 'hostile-token-0123456789abcdef';

let dir: string;
let fifo: string;

const zoneFile = (extra = '') => `version: 1
${extra}zones:
  - name: hostile.example
    account: ${ACCOUNT}
    dns:
      records:
        - { name: "@", type: A, content: 192.0.2.9 }
`;

/** A run that must end by itself, quickly: the old reads grew without bound or waited forever. */
async function refused(args: string[], reason: RegExp): Promise<CliRun> {
  const r = await spawnCli(args, { cwd: dir, timeoutMs: 8_000 });
  expect(r.timedOut, `${args.join(' ')} did not end`).toBe(false);
  expect(r.code, r.stderr).toBe(1);
  // (validate prints a file's problems on stdout, other refusals are on stderr)
  expect(r.stdout + r.stderr).toMatch(reason);
  return r;
}

beforeAll(() => {
  requireBuild();
  dir = tempDir();
  fifo = join(dir, 'pipe.yaml');
  execFileSync('mkfifo', [fifo]);
});

describe('only regular files are read', () => {
  it('validate /dev/zero and a FIFO: refused before any read', async () => {
    await refused(['validate', '/dev/zero'], /\/dev\/zero:1:1: is a device, not a regular file/);
    await refused(['validate', fifo], /pipe\.yaml:1:1: is a named pipe \(FIFO\), not a regular file/);
    await refused(['plan', '--local', fifo], /is a named pipe \(FIFO\)/);
  });

  it('--var-file /dev/zero and a FIFO', async () => {
    writeFileSync(join(dir, 'zones.yaml'), zoneFile());
    await refused(
      ['validate', 'zones.yaml', '--var-file', '/dev/zero'],
      /--var-file \/dev\/zero: cannot read it: is a device/,
    );
    await refused(['validate', 'zones.yaml', '--var-file', fifo], /cannot read it: is a named pipe/);
  });

  it('fixtures of target.local and of serve: /dev/zero and a FIFO', async () => {
    for (const [name, fixtures] of [
      ['zero.yaml', '/dev/zero'],
      ['fifo-fixtures.yaml', fifo],
    ]) {
      writeFileSync(
        join(dir, name),
        zoneFile(`target: { local: { fixtures: ${fixtures}, db: ${name}.db } }\n`),
      );
      await refused(['plan', name], /cannot read the fixtures file .*(is a device|is a named pipe)/);
    }
    await refused(
      ['serve', '--port', '0', '--db', join(dir, 'serve.db'), '--fixtures', '/dev/zero'],
      /cannot read the fixtures file \/dev\/zero: is a device/,
    );
  });

  it('apply of a FIFO, a device or a /proc file: refused, without .zoneplan/ beside it, and never spinning', async () => {
    const sub = join(dir, 'apply-here');
    mkdirSync(sub);
    const subFifo = join(sub, 'pipe.yaml');
    execFileSync('mkfifo', [subFifo]);
    await refused(
      ['apply', subFifo, '--auto-approve'],
      /pipe\.yaml: is a named pipe \(FIFO\), not a desired-state file/,
    );
    expect(existsSync(join(sub, '.zoneplan'))).toBe(false);
    await refused(['apply', '/dev/zero', '--auto-approve'], /\/dev\/zero: is a device/);
    expect(existsSync('/dev/.zoneplan')).toBe(false);
    // node's recursive mkdir never ends inside /proc/self: the lock's directory is made step by step
    await refused(
      ['apply', '/proc/self/environ', '--auto-approve'],
      /cannot create the directory \/proc\/self\/\.zoneplan/,
    );
  });

  it('a file over the size limit is refused by its size, unread', async () => {
    const big = join(dir, 'big.yaml');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 11 * 1024 * 1024); // sparse: nothing to read, only a size
    closeSync(fd);
    await refused(
      ['validate', big],
      /file is 11534336 bytes; desired-state files are limited to 10485760 bytes/,
    );
  });
});

describe('a signal ends the process', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      db: join(dir, 'slow.db'),
      quiet: true,
      faults: 'latency=5s',
      fixtures: {
        accounts: [{ id: ACCOUNT, name: 'Hostile' }],
        tokens: [{ name: 'ci', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
      },
    });
  });
  afterAll(() => server?.close());

  it('SIGTERM while one of node I/O threads is blocked on a FIFO: the process still ends', async () => {
    writeFileSync(join(dir, 'zones.yaml'), zoneFile());
    // a read that never returns, in node's I/O pool: process.exit alone would wait for it forever
    const block = `import { readFile } from 'node:fs/promises'; readFile(${JSON.stringify(fifo)});`;
    const child = spawnZoneplan(['plan', 'zones.yaml', '--api-url', server.url], {
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: TOKEN },
      nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(block)}`],
    });
    let stderr = '';
    let signalledAt = 0;
    child.stdout.resume();
    child.stderr.on('data', (d) => {
      stderr += String(d);
      // the reads are in flight (5 s each) once the target is named
      if (!signalledAt && stderr.includes('target: ')) {
        signalledAt = Date.now();
        child.kill('SIGTERM');
      }
    });
    const ended = await new Promise<boolean>((done) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        done(false);
      }, 12_000);
      child.once('close', () => {
        clearTimeout(timer);
        done(true);
      });
    });
    expect(signalledAt, stderr).toBeGreaterThan(0);
    expect(ended, `still running ${Date.now() - signalledAt} ms after SIGTERM:\n${stderr}`).toBe(true);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(stderr).toContain('terminated: stopping now');
  });
});

describe('what a file that is not a desired-state file shows', () => {
  it('text at the top level is described, never quoted', async () => {
    writeFileSync(join(dir, 'creds.yaml'), 'AWS_SECRET_ACCESS_KEY=wJalr-SECRET-Q1\n');
    const r = await refused(['validate', 'creds.yaml'], /expected a map of keys, got text \(not shown/);
    expect(r.stdout + r.stderr).not.toMatch(/SECRET|AWS_/);
  });

  it('CR-only line ends are line breaks (YAML 1.2): the file reads, and errors are on their lines', async () => {
    writeFileSync(join(dir, 'mac.yaml'), zoneFile().replace(/\n/g, '\r'));
    const ok = await spawnCli(['validate', 'mac.yaml'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('1 zone, 1 record');
    writeFileSync(
      join(dir, 'mac-bad.yaml'),
      zoneFile().replace('192.0.2.9', 'not-an-ip').replace(/\n/g, '\r'),
    );
    await refused(
      ['validate', 'mac-bad.yaml'],
      /mac-bad\.yaml:7:\d+: zones\[0\]\.dns\.records\[0\]\.content/,
    );
    writeFileSync(join(dir, 'vars.yaml'), 'ip: 192.0.2.10\rttl: 300\r');
    writeFileSync(
      join(dir, 'with-vars.yaml'),
      zoneFile().replace('192.0.2.9 }', '"${var:ip}", ttl: "${var:ttl}" }'),
    );
    const vars = await spawnCli(['validate', 'with-vars.yaml', '--var-file', 'vars.yaml'], { cwd: dir });
    expect(vars.code, vars.stderr).toBe(0);
  });
});
