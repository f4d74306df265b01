/**
 * The setup file of the `unit` and `integration` test tiers (vitest.config.ts): it makes what a tier
 * must not do throw, so a file in the wrong tier fails with a message that says where it belongs
 * instead of quietly making the fast loop slow.
 * - unit: no child process, no listening socket (so no server), no outgoing connection.
 * - integration: no child process (servers and connections in the test process are its point).
 * The `process` tier has no guard.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { expect, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    tier: 'unit' | 'integration' | 'process';
  }
}

const tier = inject('tier');

function refuse(what: string, fix: string): never {
  const file = expect.getState().testPath ?? 'this test file';
  throw new Error(
    `${what} in the ${tier} test tier (${file}): ${fix} in vitest.config.ts (docs/development.md, "Test tiers")`,
  );
}

const CHILD_PROCESS_CALLS = [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const;

if (tier === 'unit' || tier === 'integration') {
  const cp = childProcess as unknown as Record<string, unknown>;
  const fix = `${tier === 'unit' ? 'take the file out of UNIT_FILES and name it' : 'name the file'} in PROCESS_FILES`;
  for (const name of CHILD_PROCESS_CALLS) cp[name] = () => refuse(`child_process.${name}()`, fix);
  // the ESM named exports (`import { spawn } from 'node:child_process'`) follow the patched object
  syncBuiltinESMExports();
}

if (tier === 'unit') {
  net.Server.prototype.listen = function listen(): never {
    return refuse('a server listening', 'take the file out of UNIT_FILES');
  };
  net.Socket.prototype.connect = function connect(): never {
    return refuse('a network connection', 'take the file out of UNIT_FILES');
  };
}
