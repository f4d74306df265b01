/**
 * A recording HTTP proxy between the CLI and the local API: every exchange passes through unchanged
 * and is checked against the published OpenAPI subset (test/contract/openapi.ts). Violations the
 * known-deviations list names are set aside; any other fails the test that started the proxy when
 * it closes. Sitting on the wire keeps the server free of test code and sees exactly what a real
 * API would.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenApiContract, type Exchange, type Violation } from '../contract/openapi.js';
import { isKnownDeviation } from '../contract/known-deviations.js';

let shared: OpenApiContract | undefined;
/** One compiled contract per test file (compiling the subset takes a moment). */
export function contract(): OpenApiContract {
  return (shared ??= new OpenApiContract());
}

export interface ContractProxy {
  /** the proxy's /client/v4 base URL, for --api-url */
  url: string;
  exchanges: Exchange[];
  /** violations no known deviation explains */
  violations: Violation[];
  /** violations a known deviation explains */
  known: Violation[];
  /** stops the proxy; throws when there were unlisted violations */
  close(): Promise<void>;
}

const PREFIX = '/client/v4';

function parse(buf: Buffer, type: string | undefined): unknown {
  if (buf.length === 0) return undefined;
  const text = buf.toString('utf8');
  if (!/json/.test(type ?? '') && !/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Checks one exchange and files each violation as known or not. */
export function judge(x: Exchange, into: { violations: Violation[]; known: Violation[] }): void {
  for (const part of [x, ...batchItems(x)]) {
    for (const v of contract().check(part))
      (isKnownDeviation(v, part) ? into.known : into.violations).push(v);
  }
}

type Json = Record<string, unknown>;

/**
 * The DNS batch is outside the subset, but its items are the subset's record operations (docs/reference/api-facts.md
 * "DNS records", Batch): each of `posts` is a record as `POST .../dns_records` takes it, each of
 * `patches`/`puts` a `PATCH`/`PUT .../dns_records/{id}` body with its id, and the answer holds the
 * full records. So each item is checked as that single-record exchange.
 */
function batchItems(x: Exchange): Exchange[] {
  const m = /^(\/zones\/[^/]+\/dns_records)\/batch(\?|$)/.exec(x.url);
  if (x.method !== 'POST' || !m || x.status !== 200) return [];
  const req = (x.requestBody ?? {}) as Record<string, Json[] | undefined>;
  const res = ((x.responseBody as Json | undefined)?.result ?? {}) as Record<string, Json[] | undefined>;
  const envelope = (result: unknown) => ({ success: true, errors: [], messages: [], result });
  const out: Exchange[] = [];
  for (const [list, method] of [
    ['posts', 'POST'],
    ['patches', 'PATCH'],
    ['puts', 'PUT'],
  ] as const) {
    (req[list] ?? []).forEach((item, i) => {
      const { id, ...body } = item;
      out.push({
        method,
        url: method === 'POST' ? m[1]! : `${m[1]!}/${String(id)}`,
        requestBody: method === 'POST' ? item : body,
        status: 200,
        responseBody: envelope(res[list]?.[i]),
      });
    });
  }
  return out;
}

export function describeViolations(vs: Violation[]): string {
  return vs.map((v) => `${v.operation} ${v.where}: ${v.message}`).join('\n');
}

export async function startContractProxy(targetUrl: string): Promise<ContractProxy> {
  const target = new URL(targetUrl);
  const exchanges: Exchange[] = [];
  const result = { violations: [] as Violation[], known: [] as Violation[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reqBody = Buffer.concat(chunks);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          const out: Buffer[] = [];
          up.on('data', (c: Buffer) => out.push(c));
          up.on('end', () => {
            const body = Buffer.concat(out);
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(body);
            const url = (req.url ?? '/').startsWith(PREFIX) ? req.url!.slice(PREFIX.length) : req.url!;
            const x: Exchange = {
              method: req.method ?? 'GET',
              url,
              requestBody: parse(reqBody, req.headers['content-type']),
              status: up.statusCode ?? 0,
              responseBody: parse(body, up.headers['content-type']),
            };
            exchanges.push(x);
            judge(x, result);
          });
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(reqBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${PREFIX}`,
    exchanges,
    ...result,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      if (result.violations.length > 0) {
        throw new Error(
          `the API exchanges broke the published schema (test/contract/known-deviations.ts lists the accepted ones):\n` +
            describeViolations(result.violations),
        );
      }
    },
  };
}
