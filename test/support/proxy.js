// A counting proxy in front of the local API that adds a 429 burst: requests number `burstAt` to
// `burstAt + burstLength - 1` are answered 429 code 971 with `retry-after`, as the real API does when
// a user goes over the rate limit. The server's own `--faults` add the 5xx share and the latency;
// this adds the burst at a chosen point and counts every request that reached the wire, whatever
// the client logs about itself.
import { createServer, request } from 'node:http';

export async function startFaultProxy({ target, burstAt = 0, burstLength = 0, retryAfter = 1 }) {
  const upstream = new URL(target);
  const stats = { requests: 0, byStatus: {}, burst429: 0 };
  const count = (status) => (stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1);
  const server = createServer((req, res) => {
    const n = ++stats.requests;
    if (burstLength > 0 && n >= burstAt && n < burstAt + burstLength) {
      stats.burst429 += 1;
      count(429);
      req.resume();
      const body = JSON.stringify({
        success: false,
        errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }],
        messages: [],
        result: null,
      });
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': String(retryAfter),
        'x-ratelimit-limit': '1200',
        'x-ratelimit-remaining': '0',
      });
      res.end(body);
      return;
    }
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (up) => {
        count(up.statusCode ?? 0);
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => {
      count(502);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('upstream failed');
    });
    req.pipe(out);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
