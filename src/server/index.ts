/**
 * The local, persistent, wire-compatible v4 API. `startServer` is what `zoneplan serve`, the
 * embedded default target and the tests call: it opens the store, runs every area's
 * migrations, loads fixtures, makes sure someone can log in, and listens.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UserError } from '../errors.js';
import { redact, registerSecret } from '../redact.js';
import { App } from './app.js';
import type { AreaModule } from './area.js';
import { AREA_MODULES } from './areas/index.js';
import { countCredentials, saveCredential } from './auth/credentials.js';
import { Faults, parseFaults, type FaultSpec } from './faults.js';
import { loadFixtures } from './fixtures/load.js';
import { sourceFromFile, sourceFromObject } from './fixtures/source.js';
import { createDispatcher } from './http/dispatch.js';
import { answerClientErrors } from './http/protocol.js';
import { Router } from './http/router.js';
import { CORE_MIGRATIONS, getSetting, setSetting } from './store/core.js';
import { migrate, openDatabase, type Db } from './store/db.js';
import { isId32, newId, now } from './store/ids.js';
import { addTestRoutes } from './test-routes.js';

export interface StartOptions {
  /** SQLite file path, or `:memory:` */
  db: string;
  /** a fixtures file path, or an already parsed fixtures document */
  fixtures?: string | Record<string, unknown>;
  /** default 0 (any free port) */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** `latency=50ms,error5xx=0.1,ratelimit=1200/300s,seed=42` or the parsed form */
  faults?: string | FaultSpec;
  /** account ids to create in the local store when missing (the embedded default's desired-state accounts) */
  ensureAccounts?: string[];
  /** no log lines on stderr (internal errors are still counted) */
  quiet?: boolean;
  /** extra areas (tests); the registry's areas are always loaded */
  areas?: readonly AreaModule[];
  /**
   * Serve the test-only routes under /__zoneplan (fixtures, zone activation, Logpush ownership
   * reveal, pool health hook) to the admin credential: `testRoutesToken`, made per run, or the dev
   * token. Off by default (`zoneplan serve --test-routes`); `GET /__zoneplan/health` is always served.
   */
  testRoutes?: boolean;
  /** host names accepted in the Host header besides IP addresses and localhost (`--allowed-host`) */
  allowedHosts?: readonly string[];
}

export interface RunningServer {
  /** ends in /client/v4 */
  url: string;
  port: number;
  /** the dev token, when no fixtures define any credential */
  devToken?: string;
  /** the default account created along with the dev token */
  defaultAccountId?: string;
  /** the ids ensureAccounts created */
  createdAccounts: string[];
  /** the admin secret of the test-only routes, made for this run (only with `testRoutes`) */
  testRoutesToken?: string;
  db: Db;
  /** stops accepting, finishes in-flight requests, closes the database */
  close(): Promise<void>;
}

const DEV_TOKEN_KEY = 'dev_token';
const DEFAULT_ACCOUNT_KEY = 'default_account';

/** Creates (once; kept across restarts) the default account and the full-rights dev token. */
function ensureDevAccess(app: App): { token: string; accountId: string } {
  const db = app.db;
  return db.transaction(() => {
    let accountId = getSetting(db, DEFAULT_ACCOUNT_KEY);
    if (!accountId || !db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) {
      const any = db.prepare('SELECT id FROM accounts ORDER BY created_on LIMIT 1').get() as
        { id: string } | undefined;
      accountId = any?.id ?? newId();
      if (!any)
        db.prepare('INSERT INTO accounts (id, name, created_on) VALUES (?, ?, ?)').run(
          accountId,
          'Default account',
          now(),
        );
      setSetting(db, DEFAULT_ACCOUNT_KEY, accountId);
    }
    let token = getSetting(db, DEV_TOKEN_KEY);
    if (!token) {
      token = `zpdev_${newId()}${newId().slice(0, 8)}`;
      setSetting(db, DEV_TOKEN_KEY, token);
    }
    saveCredential(db, {
      kind: 'token',
      secret: token,
      label: 'dev token',
      zones: 'all',
      accounts: 'all',
      permissions: app.permissionAreas.all('edit'),
      source: 'dev',
    });
    return { token, accountId };
  })();
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const faultSpec = typeof opts.faults === 'string' ? parseFaults(opts.faults) : opts.faults;
  const db = openDatabase(opts.db);
  const areas = [...AREA_MODULES, ...(opts.areas ?? [])];
  // a log line may quote a request's URL, whose query can hold a secret the process knows
  const log = opts.quiet ? () => {} : (line: string) => process.stderr.write(redact(line) + '\n');
  let server: Server | undefined;
  try {
    migrate(db, 'core', CORE_MIGRATIONS);
    for (const a of areas) if (a.migrations) migrate(db, a.name, a.migrations);
    const app = new App(db, areas);

    if (opts.fixtures !== undefined) {
      const source =
        typeof opts.fixtures === 'string' ? sourceFromFile(opts.fixtures) : sourceFromObject(opts.fixtures);
      loadFixtures(app, source);
    }
    let dev: { token: string; accountId: string } | undefined;
    if (countCredentials(db, 'fixtures') === 0) {
      dev = ensureDevAccess(app);
      registerSecret(dev.token);
    } else {
      db.prepare("DELETE FROM credentials WHERE source = 'dev'").run();
    }
    const createdAccounts: string[] = [];
    for (const id of opts.ensureAccounts ?? []) {
      if (!isId32(id))
        throw new UserError(
          `cannot create the local account "${id}": an account id is 32 hexadecimal characters`,
        );
      const r = db
        .prepare('INSERT OR IGNORE INTO accounts (id, name, created_on) VALUES (?, ?, ?)')
        .run(id, `Local account ${id.slice(0, 8)}`, now());
      if (r.changes > 0) createdAccounts.push(id);
    }

    const router = new Router(app.permissionAreas);
    const testRouter = new Router();
    for (const a of areas) a.routes?.(router, app);
    addTestRoutes(testRouter, app, areas);

    const faults = faultSpec ? new Faults(faultSpec) : undefined;
    let testRoutesToken: string | undefined;
    if (opts.testRoutes) {
      testRoutesToken = `zptest_${newId()}${newId().slice(0, 8)}`;
      registerSecret(testRoutesToken);
    }
    const dispatcher = createDispatcher({
      app,
      router,
      testRouter,
      faults,
      log,
      testRoutes: {
        enabled: opts.testRoutes === true,
        token: testRoutesToken,
        isDevToken: (token) => app.credentials.isDevToken(token),
      },
      allowedHosts: new Set((opts.allowedHosts ?? []).map((h) => h.trim().toLowerCase())),
    });
    server = createServer({ keepAliveTimeout: 5000 }, dispatcher);
    answerClientErrors(server);
    const host = opts.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(opts.port ?? 0, host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    let closing: Promise<void> | undefined;
    const srv = server;
    return {
      url: `http://${shown}:${port}/client/v4`,
      port,
      devToken: dev?.token,
      defaultAccountId: dev?.accountId,
      createdAccounts,
      testRoutesToken,
      db,
      close() {
        closing ??= new Promise<void>((resolve) => {
          // keep-alive connections go idle as their last answer is sent: close them as they do,
          // and give up on a client that holds one open with a request that never ends
          const sweep = setInterval(() => srv.closeIdleConnections(), 50);
          const giveUp = setTimeout(() => srv.closeAllConnections(), 10_000);
          srv.close(() => {
            clearInterval(sweep);
            clearTimeout(giveUp);
            db.close();
            resolve();
          });
          srv.closeIdleConnections();
        });
        return closing;
      },
    };
  } catch (err) {
    server?.close();
    if (db.open) db.close();
    if (err instanceof Error && (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UserError(
        `cannot listen on port ${opts.port}: it is already in use (try --port 0 for any free port)`,
      );
    }
    throw err;
  }
}

export { parseFaults, type FaultSpec } from './faults.js';
export { FixtureError } from './fixtures/source.js';
