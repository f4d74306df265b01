/**
 * A real `node:http` server on 127.0.0.1:0 for the client tests. It records every request as it
 * arrives (server-side time, method, URL, headers, body) so tests assert on what was really sent.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Seen {
  /** performance.now() when the request's headers arrived */
  at: number;
  method: string;
  /** path and query as received, e.g. `/client/v4/zones?per_page=50` */
  url: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** the client's source port: requests on one kept-alive connection share it */
  clientPort: number;
}

export type Handler = (req: Seen, res: ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  /** base URL including `/client/v4` */
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const entry: Seen = {
        at,
        method: req.method ?? '',
        url,
        query: new URL(url, 'http://x').searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        clientPort: req.socket.remotePort ?? 0,
      };
      seen.push(entry);
      void handler(entry, res, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/client/v4`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a v4 envelope. */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export function ok(res: ServerResponse, result: unknown, extra: Record<string, unknown> = {}): void {
  send(res, 200, { success: true, errors: [], messages: [], result, ...extra });
}

export function fail(
  res: ServerResponse,
  status: number,
  errors: unknown[],
  headers: Record<string, string> = {},
): void {
  send(res, status, { success: false, errors, messages: [], result: null }, headers);
}

/** A base URL on which nothing listens: a port that was free a moment ago. */
export async function refusedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/client/v4`;
}
