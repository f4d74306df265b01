/**
 * Starting a real local API for a test: a SQLite file in a fresh temp dir, port 0, and a small
 * fetch wrapper that returns status, headers and the parsed envelope. Part 2's tests import this.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/index.js';
import { planJson } from '../../src/server/areas/zones/json.js';
import type { Plan } from '../../src/server/store/core.js';

export interface Envelope<T = any> {
  success: boolean;
  result: T;
  /** `source` is typed as present for the tests' convenience; it is absent unless the error points into the body */
  errors: {
    code: number;
    message: string;
    error_chain?: { code: number; message: string }[];
    source: { pointer: string };
  }[];
  messages: unknown[];
  result_info: { page: number; per_page: number; count: number; total_count: number; total_pages: number };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
  text: string;
}

export interface TestServer {
  server: RunningServer;
  url: string;
  dir: string;
  dbPath: string;
  /** the dev token when the fixtures define no credential */
  token?: string;
  /** calls the API with the dev token (or `auth`: headers to use instead, `{}` for none) */
  api<T = any>(
    method: string,
    path: string,
    body?: unknown,
    auth?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  /** same, with a raw string body */
  raw(method: string, path: string, body: string, headers?: Record<string, string>): Promise<ApiResponse>;
  /** stops the server (data stays) */
  stop(): Promise<void>;
  /** starts it again on the same database */
  restart(extra?: Partial<StartOptions>): Promise<void>;
  /** stops it and removes the temp dir */
  close(): Promise<void>;
}

/**
 * The test-only routes are on (`testRoutes: true`) unless `opts` says otherwise; call them with
 * test/support/test-routes.ts (the token is `server.testRoutesToken`).
 */
export async function startTestServer(opts: Partial<StartOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'zoneplan-server-'));
  const dbPath = opts.db ?? join(dir, 'local.db');
  let server = await startServer({ quiet: true, testRoutes: true, ...opts, db: dbPath });
  let stopped = false;
  const t: TestServer = {
    server,
    url: server.url,
    dir,
    dbPath,
    token: server.devToken,
    async raw(method, path, body, headers = {}) {
      const res = await fetch(t.url + path, {
        method,
        body,
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json', ...headers },
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        text,
        body: text ? JSON.parse(text) : (undefined as any),
      };
    },
    async api(method, path, body, auth) {
      // a copy: the caller's headers object is often a shared constant
      const headers: Record<string, string> = {
        ...(auth ?? (t.token ? { authorization: `Bearer ${t.token}` } : {})),
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(t.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        text,
        body: text ? JSON.parse(text) : (undefined as any),
      };
    },
    async stop() {
      if (!stopped) await server.close();
      stopped = true;
    },
    async restart(extra = {}) {
      await t.stop();
      server = await startServer({ quiet: true, testRoutes: true, ...opts, ...extra, db: dbPath });
      stopped = false;
      t.server = server;
      t.url = server.url;
      t.token = server.devToken ?? t.token;
    },
    async close() {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Creates a zone through the API and returns its id. */
/**
 * Creates a zone (on the Free plan, as POST /zones does); `plan` moves it to another plan with
 * PATCH, as a client would (tags on DNS records need a paid plan).
 */
export async function createZone(t: TestServer, name = 'example.com', plan?: Plan): Promise<string> {
  const accounts = await t.api('GET', '/accounts');
  const res = await t.api('POST', '/zones', {
    name,
    account: { id: accounts.body.result[0].id },
    type: 'full',
  });
  if (!res.body.success) throw new Error(`creating ${name}: ${res.text}`);
  const id = res.body.result.id as string;
  if (plan && plan !== 'free') {
    const moved = await t.api('PATCH', `/zones/${id}`, { plan: { id: planJson(plan).id } });
    if (!moved.body.success) throw new Error(`moving ${name} to ${plan}: ${moved.text}`);
  }
  return id;
}
