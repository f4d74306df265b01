// The real CLI as a child process (bin/zoneplan.js, i.e. the build in dist/), for the tests that are
// about the process itself: its exit status, signals (SIGKILL as a crash, SIGTERM as a stop), memory
// limits, a closed pipe. Everything else runs the CLI in-process (./cli.ts). Also used by the long
// runs in bench/soak and bench/crash.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/zoneplan.js', import.meta.url));

export function requireBuild() {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))))
    throw new Error('build first: npx tsc -p tsconfig.build.json');
}

/** The environment of a child: PATH and NO_COLOR only, plus `env` (so the host's credentials never leak in). */
function childEnv(env) {
  return { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env };
}

/**
 * Spawns `node bin/zoneplan.js ...args` with only PATH, NO_COLOR and `env` in its environment;
 * `node` is the binary (this process's own unless given: another version, for the code cache's test).
 */
export function spawnZoneplan(
  args,
  { cwd, env = {}, nodeArgs = [], node = process.execPath, stdio = ['ignore', 'pipe', 'pipe'] } = {},
) {
  return spawn(node, [...nodeArgs, BIN, ...args], { cwd, env: childEnv(env), stdio });
}

/**
 * Starts `zoneplan serve --port 0` and resolves once it prints its URL. `kill('SIGKILL')` is a crash;
 * `stop()` a clean SIGTERM shutdown.
 */
export function startServe({ db, fixtures, faults, cwd, env = {}, extraArgs = [] }) {
  const args = ['serve', '--port', '0', '--db', db, ...extraArgs];
  if (fixtures) args.push('--fixtures', fixtures);
  if (faults) args.push('--faults', faults);
  const child = spawnZoneplan(args, { cwd, env });
  let stdout = '';
  let stderr = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let listening = false;
    const onData = () => {
      if (listening) return;
      const m = /listening on (http:\/\/\S+)/.exec(stdout + stderr);
      if (!m) return;
      // the listeners stay: they drain the pipes (a full pipe would block the server) and keep
      // what serve prints after the listening line (its tokens) in output()
      listening = true;
      const url = m[1];
      resolve({
        url,
        pid: child.pid,
        output: () => stdout + stderr,
        kill: (signal = 'SIGKILL') => {
          child.kill(signal);
          return exited;
        },
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    const onOut = (d) => {
      stdout += d;
      onData();
    };
    const onErr = (d) => {
      stderr += d;
      onData();
    };
    child.stdout.on('data', onOut);
    child.stderr.on('data', onErr);
    exited.then(({ code, signal }) =>
      reject(new Error(`zoneplan serve exited (${code ?? signal}) before listening:\n${stdout}${stderr}`)),
    );
  });
}

/**
 * `call(method, path, body)` on a served API with the token: the whole envelope, or an error naming
 * the request when the envelope does not say success. For the bench scripts' seeding and reads.
 */
export function apiCaller(url, token) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return async function call(method, path, body) {
    const res = await request(url + path, { method, headers, body: body && JSON.stringify(body) });
    const env = await res.body.json();
    if (!env.success) throw new Error(`${method} ${path}: ${JSON.stringify(env.errors)}`);
    return env;
  };
}

/**
 * Runs the CLI. `killAfterMs` sends SIGKILL after that long (a crash at a chosen point); `timeoutMs`
 * kills it too and reports `timedOut`. `nodeArgs` go to node itself (e.g. --max-old-space-size);
 * `node` is the binary (see spawnZoneplan).
 */
export function spawnCli(args, { cwd, env = {}, timeoutMs = 60_000, killAfterMs, nodeArgs = [], node }) {
  const started = Date.now();
  const child = spawnZoneplan(args, { cwd, env, nodeArgs, node });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const killer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (killer) clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}
