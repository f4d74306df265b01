/**
 * The bed of the HTTP client's tests: a stub API server (test/client/server.ts, each test gives its
 * handler) and an ApiClient pointed at it, both closed after each test, the client first.
 */
import { afterEach, expect } from 'vitest';
import { ApiClient, ApiError, type ClientOptions } from '../../src/client/index.js';
import { startServer, type Handler, type TestServer } from '../client/server.js';

interface Closable {
  close(): Promise<void> | void;
}

/**
 * Call at the top of a test file: `setup(handler, opts)` starts a server and a client with the
 * file's `defaults` and the test's `opts`; `keep(x)` closes anything else a test opens.
 */
export function useStubApi(defaults: Partial<ClientOptions> = {}) {
  let open: Closable[] = [];
  afterEach(async () => {
    const closing = open.reverse();
    open = [];
    for (const x of closing) await x.close();
  });
  const keep = <T extends Closable>(x: T): T => {
    open.push(x);
    return x;
  };
  async function setup(
    handler: Handler,
    opts: Partial<ClientOptions> = {},
  ): Promise<{ server: TestServer; client: ApiClient }> {
    const server = keep(await startServer(handler));
    const client = keep(new ApiClient({ baseUrl: server.baseUrl, ...defaults, ...opts }));
    return { server, client };
  }
  return { setup, keep };
}

/** The ApiError a promise rejects with (the test fails if it resolves or rejects with another error). */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
