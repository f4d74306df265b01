/**
 * The checks every request passes before routing matters, because the local API listens on a
 * machine where browsers also run (docs/local-api.md, "Who may call it"):
 * - the `Host` header must be an IP address, `localhost` or a name the operator allowed: a web page
 *   whose name is re-pointed at 127.0.0.1 (DNS rebinding) still sends its own name, and is refused;
 * - a request body must be sent as JSON: the content types a browser may send across sites without
 *   asking first (text/plain, form-urlencoded, multipart) are refused, so no page can post to us;
 * - the test-only routes (/__zoneplan) are served only when the server was started with them, and
 *   then only to the admin credential (the per-run test-routes token, or the dev token).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { ApiError, ERR } from './envelope.js';

/** The name part of a Host header (`[::1]:8787` -> `::1`, `LocalHost:80` -> `localhost`). */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(1, end);
  }
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/**
 * Refuses a Host that names this server by a name nobody allowed. IP literals and `localhost`
 * (with any port: a proxy in front may forward its own) are always accepted: a rebinding attack
 * needs a name it controls. A request without Host (HTTP/1.0) names nothing and passes.
 */
export function checkHost(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): void {
  const host = headers.host;
  if (host === undefined) return;
  const name = hostName(host);
  if (name === 'localhost' || isIP(name) !== 0 || allowed.has(name)) return;
  throw ApiError.of(
    ERR.hostNotAllowed.status,
    ERR.hostNotAllowed.code,
    `The Host header "${host.slice(0, 100)}" is not an address of this server: the local API answers ` +
      'to IP addresses and localhost (start it with --allowed-host NAME to answer to a name).',
  );
}

/** `application/json`, with or without parameters (`; charset=utf-8`), in any letter case. */
export function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/** A request that carries a body must say it is JSON (the only body the API reads). */
export function checkJsonBody(headers: IncomingHttpHeaders, bodyText: string): void {
  if (bodyText.length === 0 || isJsonType(headers['content-type'])) return;
  const sent = headers['content-type'];
  throw ApiError.of(
    ERR.notJson.status,
    ERR.notJson.code,
    `${sent === undefined ? 'No Content-Type' : `The Content-Type "${sent.slice(0, 100)}"`} is not accepted: ` +
      'a request body must be JSON, sent with Content-Type: application/json.',
  );
}

export interface TestRouteAccess {
  /** `startServer({testRoutes: true})` / `zoneplan serve --test-routes` */
  enabled: boolean;
  /** the per-run admin secret, when enabled */
  token?: string;
  /** the dev token counts as admin while it is a credential of the store */
  isDevToken(token: string): boolean;
}

/** The one test-only route served without the flag and without a credential: it reveals nothing. */
export const OPEN_TEST_ROUTE = { method: 'GET', path: '/health' } as const;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Off without the flag (404, saying how to turn them on); then the admin credential only. */
export function checkTestRoute(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  access: TestRouteAccess,
): void {
  if (method === OPEN_TEST_ROUTE.method && path === OPEN_TEST_ROUTE.path) return;
  if (!access.enabled) {
    throw ApiError.of(
      ERR.noRoute.status,
      ERR.noRoute.code,
      `${ERR.noRoute.message}: the test-only routes are off (start the server with zoneplan serve --test-routes).`,
    );
  }
  const auth = headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  if (bearer === undefined) {
    throw ApiError.of(
      ERR.missingAuth.status,
      ERR.missingAuth.code,
      'Missing Authorization header: the test-only routes need Authorization: Bearer with the test-routes token serve printed at start (or the dev token).',
    );
  }
  if ((access.token !== undefined && sameSecret(bearer, access.token)) || access.isDevToken(bearer)) return;
  throw ApiError.of(
    ERR.badAuth.status,
    ERR.badAuth.code,
    'Authentication error: the test-only routes accept only the test-routes token serve printed at start (or the dev token).',
  );
}
