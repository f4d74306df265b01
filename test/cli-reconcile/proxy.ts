/**
 * A real HTTP proxy in front of the local API that plays a target the server cannot: one without
 * the DNS batch endpoint (404), or one that applies a batch and then drops the connection before
 * answering (the outcome is unknown to the client), or one that stores the opposite of the Page
 * Shield switch it was sent (what the read-back after apply exists to catch); or, with 'pass', none
 * of that. It counts the requests it saw.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'pass' | 'no-batch' | 'drop-first-batch-reply' | 'flip-page-shield-switch';

export interface Proxy {
  url: string;
  seen: string[];
  close(): Promise<void>;
}

export async function startProxy(targetUrl: string, mode: ProxyMode): Promise<Proxy> {
  const target = new URL(targetUrl);
  const seen: string[] = [];
  let dropped = false;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const isBatch = req.method === 'POST' && /\/dns_records\/batch$/.test(path.split('?')[0]);
    seen.push(`${req.method} ${path.split('?')[0]}`);
    if (mode === 'no-batch' && isBatch) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: false,
          errors: [{ code: 7000, message: 'No route for that URI' }],
          messages: [],
          result: null,
        }),
      );
      return;
    }
    if (mode === 'flip-page-shield-switch' && req.method === 'PUT' && /\/page_shield$/.test(path)) {
      let text = '';
      req.on('data', (d) => (text += String(d)));
      req.on('end', () => {
        const sent = JSON.parse(text) as { enabled: boolean };
        const body = JSON.stringify({ ...sent, enabled: !sent.enabled });
        const headers = { ...req.headers, 'content-length': String(Buffer.byteLength(body)) };
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path, headers },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      });
      return;
    }
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path, headers: req.headers },
      (up) => {
        if (mode === 'drop-first-batch-reply' && isBatch && !dropped) {
          // the server applied the batch; the client never hears so
          dropped = true;
          up.resume();
          up.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    // the client may go away mid-answer (a run that ends abandons its early reads): the upstream
    // socket then fails, which is this proxy's to absorb, not the test process's to crash on
    upstream.on('error', () => res.destroy());
    req.on('error', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/client/v4`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
