/** What a route handler receives. */
import type { IncomingHttpHeaders } from 'node:http';
import type { App } from '../app.js';
import type { Principal } from '../auth/principal.js';
import type { AccountRow, ZoneRow } from '../store/core.js';

export interface RequestContext {
  app: App;
  method: string;
  /** the path below the base, e.g. `/zones/abc/dns_records` */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** the parsed JSON body; undefined when the request had none */
  body: unknown;
  headers: IncomingHttpHeaders;
  /** null on public routes */
  principal: Principal | null;
  /** loaded and access-checked when the path has `:zone_id` */
  zone?: ZoneRow;
  /** loaded and access-checked when the path has `:account_id` */
  account?: AccountRow;
}
