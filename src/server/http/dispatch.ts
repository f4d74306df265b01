/**
 * The request pipeline: Host -> base path -> test-route gate -> faults -> body (JSON only) ->
 * route -> auth -> zone/account scope -> handler -> envelope. Every failure on the way becomes an
 * error envelope; an unexpected exception is a 500 (a bug) logged to stderr, never a dropped
 * connection.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app.js';
import { allows, reachesAccount, reachesZone, type Principal } from '../auth/principal.js';
import type { Faults } from '../faults.js';
import { getAccount, getZone } from '../store/core.js';
import { dataVersion } from '../store/db.js';
import { isId32 } from '../store/ids.js';
import type { RequestContext } from './context.js';
import { ApiError, ERR, errorBody, successBody, type Reply } from './envelope.js';
import { checkHost, checkJsonBody, checkTestRoute, type TestRouteAccess } from './guards.js';
import { routingMethod } from './protocol.js';
import { parseJsonBody, readBody } from './request.js';
import type { Route, Router } from './router.js';

/** The two base paths of the spec. */
export const BASE_PATHS = ['/client/v4', '/api/v4'] as const;
/** Test-only routes live here, outside the API base, without faults; off unless the server turns them on. */
export const TEST_PREFIX = '/__zoneplan';

export interface DispatchOptions {
  app: App;
  router: Router;
  testRouter: Router;
  faults?: Faults;
  log: (line: string) => void;
  /** whether the test-only routes are served, and to whom */
  testRoutes: TestRouteAccess;
  /** host names (lower case) accepted in the Host header besides IP addresses and localhost */
  allowedHosts: ReadonlySet<string>;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': String(length), ...headers });
  res.end(body);
}

function sendError(res: ServerResponse, err: ApiError, extra: Record<string, string> = {}): void {
  send(res, err.status, errorBody(err.errors), { ...extra, ...err.headers });
}

export function createDispatcher(opts: DispatchOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(opts, req, res).catch((err: unknown) => {
      opts.log(
        `zoneplan serve: internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`,
      );
      if (!res.headersSent)
        sendError(res, ApiError.of(ERR.internal.status, ERR.internal.code, ERR.internal.message));
      else res.destroy();
    });
  };
}

async function handle(opts: DispatchOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const method = (req.method ?? 'GET').toUpperCase();

  let path: string | null = null;
  let router = opts.router;
  let isTest = false;
  for (const base of BASE_PATHS) {
    if (rawPath === base || rawPath.startsWith(base + '/')) {
      path = rawPath.slice(base.length) || '/';
      break;
    }
  }
  if (path === null && (rawPath === TEST_PREFIX || rawPath.startsWith(TEST_PREFIX + '/'))) {
    path = rawPath.slice(TEST_PREFIX.length) || '/';
    router = opts.testRouter;
    isTest = true;
  }

  // the rate headers describe the budget after this request is counted, so they are read from
  // before() rather than ahead of it (the first of N requests reports N - 1 remaining)
  let extraHeaders: Record<string, string> = {};
  try {
    // before anything else is read: a rebinding page or a cross-site post learns nothing
    checkHost(req.headers, opts.allowedHosts);
    if (isTest && path !== null) checkTestRoute(method, path, req.headers, opts.testRoutes);
    if (!isTest && opts.faults?.active) extraHeaders = await opts.faults.before();
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    let bodyText = '';
    let invalidUtf8At: number | undefined;
    if (hasBody) {
      const body = await readBody(req);
      if (!body.ok) {
        throw ApiError.of(ERR.tooLarge.status, ERR.tooLarge.code, `${ERR.tooLarge.message} (10 MB).`);
      }
      bodyText = body.text;
      invalidUtf8At = body.invalidUtf8At;
    }
    // on every route, before any answer (a cached one included) is chosen
    checkJsonBody(req.headers, bodyText);
    const match = path === null ? null : router.match(routingMethod(method), path);
    if (!match || path === null) throw ApiError.of(ERR.noRoute.status, ERR.noRoute.code, ERR.noRoute.message);
    const { route, params } = match;

    // a cacheable GET: the same URL with the same credential, and no table changed since
    let cacheKey: string | undefined;
    let version: string | undefined;
    if (route.cacheable && !isTest) {
      const h = req.headers;
      cacheKey = `${url}\0${h.authorization ?? ''}\0${h['x-auth-email'] ?? ''}\0${h['x-auth-key'] ?? ''}`;
      version = dataVersion(opts.app.db);
      const hit = opts.app.responses.get(cacheKey, version);
      if (hit) {
        send(res, 200, hit, extraHeaders);
        return;
      }
    }

    const ctx: RequestContext = {
      app: opts.app,
      method,
      path,
      params,
      query,
      body: undefined,
      headers: req.headers,
      principal: null,
    };
    if (!isTest) authorize(ctx, route);
    ctx.body = parseJsonBody(bodyText, invalidUtf8At);
    const reply: Reply = await route.handler(ctx);
    if (reply.empty) {
      res.writeHead(reply.status ?? 204, { ...extraHeaders, ...reply.headers });
      res.end();
      return;
    }
    const status = reply.status ?? 200;
    if (cacheKey !== undefined && version !== undefined && status === 200 && !reply.headers) {
      const bytes = reply.bytes ?? Buffer.from(successBody(reply));
      opts.app.responses.set(cacheKey, version, bytes);
      send(res, status, bytes, extraHeaders);
      return;
    }
    send(res, status, reply.bytes ?? successBody(reply), { ...extraHeaders, ...reply.headers });
  } catch (err) {
    if (err instanceof ApiError) {
      sendError(res, err, err.status === 413 ? { ...extraHeaders, connection: 'close' } : extraHeaders);
      return;
    }
    throw err;
  }
}

/** Authentication, area permission, token-only areas, and the zone/account in the path. */
function authorize(ctx: RequestContext, route: Route): void {
  if (route.area === 'public') return;
  const p: Principal = ctx.app.credentials.authenticate(ctx.headers);
  ctx.principal = p;
  if (
    p.kind === 'key' &&
    (route.tokenOnly || (route.area !== 'any' && ctx.app.permissionAreas.isTokenOnly(route.area)))
  ) {
    throw ApiError.of(
      ERR.forbidden.status,
      ERR.forbidden.code,
      'Authentication error: this API accepts API tokens only (Authorization: Bearer), not X-Auth-Email/X-Auth-Key.',
    );
  }
  if (route.area !== 'any' && !allows(p, route.area, route.access)) {
    throw ApiError.of(
      ERR.forbidden.status,
      ERR.forbidden.code,
      `Authentication error: the credential lacks ${route.area} ${route.access} permission.`,
    );
  }
  const zoneId = ctx.params.zone_id ?? ctx.params.zone_identifier;
  if (zoneId !== undefined) {
    if (!isId32(zoneId)) throw ApiError.badId(ctx.path);
    const zone = getZone(ctx.app.db, zoneId);
    if (!zone) throw ApiError.badId(ctx.path, 404);
    if (!reachesZone(p, zone)) {
      throw ApiError.of(
        ERR.forbidden.status,
        ERR.forbidden.code,
        'Authentication error: the credential does not reach this zone.',
      );
    }
    ctx.zone = zone;
  }
  const accountId = ctx.params.account_id;
  if (accountId !== undefined) {
    if (!isId32(accountId)) throw ApiError.badId(ctx.path);
    const account = getAccount(ctx.app.db, accountId);
    if (!account || !reachesAccount(p, accountId)) {
      // like the real API, an account the credential cannot see is answered as forbidden
      throw ApiError.of(
        ERR.forbidden.status,
        ERR.forbidden.code,
        'Authentication error: the credential does not reach this account.',
      );
    }
    ctx.account = account;
  }
}
