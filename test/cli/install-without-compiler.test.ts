/**
 * `npm ci` needs no compiler, make or python: better-sqlite3 ships its native addon prebuilt, but
 * also a binding.gyp, and `npm ci` runs `node-gyp rebuild` for it (python3 and make, even though
 * nothing is compiled) unless the project's `allowScripts` in package.json denies that. Checked
 * on a project of better-sqlite3 alone, at the version package-lock.json pins and with this
 * project's `allowScripts`, installed by `npm ci` with cc, c++, gcc, g++, clang, make and python3 on
 * PATH replaced by commands that fail and record their call.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
const TOOLS = ['cc', 'c++', 'gcc', 'g++', 'clang', 'make', 'python', 'python3'];

describe('installing on a machine without build tools', () => {
  const work = mkdtempSync(join(tmpdir(), 'zoneplan-no-build-tools-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('runs no build step for better-sqlite3, and its prebuilt addon loads', async () => {
    const stubs = join(work, 'stubs');
    const calls = join(work, 'calls.log');
    const project = join(work, 'project');
    for (const dir of [stubs, project]) mkdirSync(dir);
    for (const tool of TOOLS) {
      writeFileSync(join(stubs, tool), `#!/bin/sh\necho "${tool} $*" >> '${calls}'\nexit 127\n`);
      chmodSync(join(stubs, tool), 0o755);
    }
    const version = (read('package-lock.json') as { packages: Record<string, { version: string }> }).packages[
      'node_modules/better-sqlite3'
    ]!.version;
    const { allowScripts } = read('package.json') as { allowScripts?: Record<string, boolean> };
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'probe',
        private: true,
        dependencies: { 'better-sqlite3': version },
        allowScripts,
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${stubs}${delimiter}${process.env.PATH ?? ''}` };
    delete env.npm_config_build_from_source;
    const npm = (args: string[]) =>
      promisify(execFile)('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: project,
        env,
      })
        .then(() => 0)
        .catch((err: { code: number; stderr: string }) => `exit ${err.code}: ${err.stderr.slice(-600)}`);
    expect(await npm(['install', '--package-lock-only'])).toBe(0);
    expect(await npm(['ci', '--foreground-scripts'])).toBe(0);
    expect(existsSync(calls) ? readFileSync(calls, 'utf8') : 'no build tool called').toBe(
      'no build tool called',
    );
    const loaded = await promisify(execFile)(
      process.execPath,
      [
        '-e',
        "const D = require('better-sqlite3'); console.log(new D(':memory:').prepare('SELECT 41 + 1 AS n').get().n)",
      ],
      { cwd: project },
    );
    expect(loaded.stdout.trim()).toBe('42');
  }, 120_000);
});
