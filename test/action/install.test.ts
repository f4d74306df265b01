// The action's install (action/install.sh), run as action.yml runs it: `install.sh key` (the cache
// key of the source), then `install.sh`. npm is a recorder on PATH here: the real cold build (npm
// ci, a build, a registry download of the runtime dependencies) takes a minute, so these tests check
// what is asked of npm, that a warm runner asks nothing, and which source a `version` fetches
// (a git ref of a repository served from a local directory, as GITHUB_SERVER_URL allows).
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli-reconcile/helpers.js';
import { readOutputs } from './runner.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-install-'));
const source = join(dir, 'action');
const npmLog = join(dir, 'npm.log');

/** A source tree of the shape the key hashes: package.json, the lock file, src/. */
function writeSource(at: string, lock: string): void {
  mkdirSync(join(at, 'src'), { recursive: true });
  writeFileSync(join(at, 'package.json'), '{ "name": "zoneplan", "version": "0.1.0" }\n');
  writeFileSync(join(at, 'package-lock.json'), lock);
  writeFileSync(join(at, 'src', 'main.ts'), 'export {};\n');
}

beforeAll(() => {
  writeSource(source, '{ "lockfileVersion": 3 }\n');
  // npm, recorded: `pack` leaves a tarball, `install --prefix P` a zoneplan in P's .bin
  mkdirSync(join(dir, 'bin'));
  writeFileSync(
    join(dir, 'bin', 'npm'),
    `#!/usr/bin/env bash
echo "$*" >>"${npmLog}"
case "$1" in
  pack) dest=\${@: -1}; touch "$dest/zoneplan-0.1.0.tgz"; echo zoneplan-0.1.0.tgz ;;
  install) prefix=$3; mkdir -p "$prefix/node_modules/.bin"
    printf '#!/bin/sh\\necho 0.1.0\\n' >"$prefix/node_modules/.bin/zoneplan"
    chmod +x "$prefix/node_modules/.bin/zoneplan" ;;
esac
`,
  );
  chmodSync(join(dir, 'bin', 'npm'), 0o755);
});

function install(args: string[], env: Record<string, string>) {
  const output = join(dir, `output-${Math.random().toString(36).slice(2)}`);
  writeFileSync(output, '');
  return new Promise<{ code: number; stdout: string; stderr: string; outputs: Record<string, string> }>(
    (done) =>
      execFile(
        'bash',
        [join(ROOT, 'action', 'install.sh'), ...args],
        {
          cwd: dir,
          env: {
            PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
            HOME: dir,
            RUNNER_TEMP: join(dir, 'temp'),
            RUNNER_TOOL_CACHE: join(dir, 'toolcache'),
            GITHUB_OUTPUT: output,
            ...env,
          },
        },
        (err, stdout, stderr) =>
          done({ code: err ? Number(err.code) : 0, stdout, stderr, outputs: readOutputs(output) }),
      ),
  );
}
const npmCalls = () => (existsSync(npmLog) ? readFileSync(npmLog, 'utf8').trim().split('\n') : []);

describe("the action's install", () => {
  it('keys the build by platform, Node ABI, lock file and sources', async () => {
    const first = await install(['key'], { GITHUB_ACTION_PATH: source });
    expect(first.code, first.stderr).toBe(0);
    const abi = `${process.platform}-${process.arch}-abi${process.versions.modules}`;
    expect(first.outputs.key).toMatch(new RegExp(`^zoneplan-${abi}-[0-9a-f]{20}$`));
    expect(first.outputs.source).toBe(source);
    expect(first.outputs.dir).toBe(join(dir, 'toolcache', 'zoneplan-action', first.outputs.key));
    expect((await install(['key'], { GITHUB_ACTION_PATH: source })).outputs.key).toBe(first.outputs.key);
    const other = join(dir, 'other');
    writeSource(other, '{ "lockfileVersion": 3, "packages": {} }\n');
    expect((await install(['key'], { GITHUB_ACTION_PATH: other })).outputs.key).not.toBe(first.outputs.key);
  });

  it('builds and packs once on a cold runner; a warm runner (or a restored cache) asks npm nothing', async () => {
    const { outputs } = await install(['key'], { GITHUB_ACTION_PATH: source });
    const githubPath = join(dir, 'github-path');
    const env = {
      ZONEPLAN_SOURCE: outputs.source,
      ZONEPLAN_KEY: outputs.key,
      ZONEPLAN_DIR: outputs.dir,
      GITHUB_PATH: githubPath,
    };
    const cold = await install([], env);
    expect(cold.code, cold.stderr).toBe(0);
    expect(npmCalls().map((c) => c.split(' ')[0])).toEqual(['ci', 'pack', 'install']);
    expect(npmCalls()[1]).toMatch(/--ignore-scripts/); // built by `npm ci` already
    expect(npmCalls()[2]).toMatch(
      new RegExp(`^install --prefix ${outputs.dir}\\.partial --omit=dev .*zoneplan-0\\.1\\.0\\.tgz$`),
    );
    expect(readFileSync(join(outputs.dir, '.zoneplan-key'), 'utf8').trim()).toBe(outputs.key);
    expect(existsSync(`${outputs.dir}.partial`)).toBe(false);
    expect(readFileSync(githubPath, 'utf8')).toBe(join(outputs.dir, 'node_modules', '.bin') + '\n');
    expect(cold.stdout).toMatch(/0\.1\.0\n$/);

    const warm = await install([], env);
    expect(warm.code, warm.stderr).toBe(0);
    expect(warm.stdout).toMatch(/installed already/);
    expect(npmCalls()).toHaveLength(3);
  });

  describe('version: a git ref of the action repository', () => {
    const server = join(dir, 'server');
    beforeAll(() => {
      const repo = join(server, 'acme', 'zoneplan');
      writeSource(repo, '{ "lockfileVersion": 3 }\n');
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
      git('init', '-q');
      git('add', '.');
      git('commit', '-q', '-m', 'v1');
      git('tag', 'v1');
    });
    const fromServer = { GITHUB_SERVER_URL: `file://${server}`, GITHUB_ACTION_REPOSITORY: 'acme/zoneplan' };

    it('fetches the ref and keys its tree like a checkout of it', async () => {
      const r = await install(['key'], { ...fromServer, ZONEPLAN_VERSION: 'v1' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.outputs.source).toBe(join(dir, 'temp', 'zoneplan-source'));
      expect(readFileSync(join(r.outputs.source, 'package.json'), 'utf8')).toContain('"zoneplan"');
      // the same files as the action's own checkout above: the same key
      expect(r.outputs.key).toBe((await install(['key'], { GITHUB_ACTION_PATH: source })).outputs.key);
      const named = await install(['key'], {
        GITHUB_SERVER_URL: fromServer.GITHUB_SERVER_URL,
        ZONEPLAN_VERSION: 'acme/zoneplan@v1',
      });
      expect(named.outputs.key).toBe(r.outputs.key);
    });

    it('a ref that does not exist, or an unknown repository, is named in the error', async () => {
      const missing = await install(['key'], { ...fromServer, ZONEPLAN_VERSION: 'v9' });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(
        `version v9: no branch, tag or commit v9 in file://${server}/acme/zoneplan`,
      );
      const unknown = await install(['key'], { ZONEPLAN_VERSION: 'v1' });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/give it as OWNER\/NAME@v1/);
    });
  });
});
