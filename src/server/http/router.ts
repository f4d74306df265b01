/**
 * A small segment-trie router: static segments win over `:params`, matching backtracks, and a
 * lookup costs one map probe per path segment. Routes declare what the framework enforces for
 * them (auth area, read/edit, token-only) so a handler never re-checks access.
 */
import type { Reply } from './envelope.js';
import type { RequestContext } from './context.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A permission area's name. The areas are not listed here: each AreaModule declares its own
 * (`permissions`), and auth/permission-areas.ts builds the registry from the running modules.
 */
export type Area = string;

/** What a router asks of the permission-area registry: is a route's area declared at all. */
export interface DeclaredAreas {
  has(name: string): boolean;
  readonly names: string[];
}

export interface RouteSpec {
  method: Method;
  /** e.g. `/zones/:zone_id/dns_records/:dns_record_id`; `:zone_id` and `:account_id` are checked and loaded */
  path: string;
  /**
   * The permission area checked for this route, or `public` for routes anyone may call (`/ips`),
   * or `any` for routes any valid credential may call (accounts).
   */
  area: Area | 'public' | 'any';
  /** read for GET, edit for writes (default: by method) */
  access?: 'read' | 'edit';
  /** refuse e-mail/key pairs even if the area allows them */
  tokenOnly?: boolean;
  /**
   * GET only: the answer depends on nothing but the stored data and the request, so the
   * encoded response may be reused (per URL and credential) until any table changes. Never set
   * it on routes whose answer moves with time or with state outside SQLite.
   */
  cacheable?: boolean;
  handler: (ctx: RequestContext) => Reply | Promise<Reply>;
}

export interface Route extends RouteSpec {
  access: 'read' | 'edit';
  tokenOnly: boolean;
  cacheable: boolean;
  paramNames: string[];
}

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
  routes: Map<string, Route>;
}

function node(): Node {
  return { statics: new Map(), routes: new Map() };
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private readonly root = node();

  /**
   * @param declared when given, a route whose area is neither `public`, `any` nor declared by some
   *   AreaModule is refused at start-up (a typo in `area:` would otherwise lock the route for everyone)
   */
  constructor(private readonly declared?: DeclaredAreas) {}

  add(spec: RouteSpec): void {
    if (this.declared && spec.area !== 'public' && spec.area !== 'any' && !this.declared.has(spec.area)) {
      throw new Error(
        `route ${spec.method} ${spec.path}: permission area "${spec.area}" is declared by no area ` +
          `(declared: ${this.declared.names.join(', ')}); add it to the AreaModule's permissions`,
      );
    }
    const segments = spec.path.split('/').filter(Boolean);
    let n = this.root;
    const paramNames: string[] = [];
    for (const s of segments) {
      if (s.startsWith(':')) {
        const name = s.slice(1);
        if (n.param && n.param.name !== name) {
          throw new Error(
            `route ${spec.path}: parameter :${name} clashes with :${n.param.name} at the same place`,
          );
        }
        n.param ??= { name, node: node() };
        paramNames.push(name);
        n = n.param.node;
      } else {
        let next = n.statics.get(s);
        if (!next) n.statics.set(s, (next = node()));
        n = next;
      }
    }
    if (n.routes.has(spec.method)) throw new Error(`route ${spec.method} ${spec.path} is declared twice`);
    const access = spec.access ?? (spec.method === 'GET' ? 'read' : 'edit');
    const cacheable = spec.method === 'GET' && spec.cacheable === true;
    n.routes.set(spec.method, { ...spec, access, tokenOnly: spec.tokenOnly ?? false, cacheable, paramNames });
  }

  /** The route for a method and a path below the base (e.g. `/zones/abc/dns_records`), or null. */
  match(method: string, path: string): Match | null {
    const segments = path.split('/').filter(Boolean);
    const values: string[] = [];
    const found = this.walk(this.root, segments, 0, method, values);
    if (!found) return null;
    const params: Record<string, string> = {};
    found.paramNames.forEach((name, i) => (params[name] = values[i]));
    return { route: found, params };
  }

  private walk(n: Node, segs: string[], i: number, method: string, values: string[]): Route | null {
    if (i === segs.length) return n.routes.get(method) ?? null;
    const s = segs[i];
    const st = n.statics.get(s);
    if (st) {
      const r = this.walk(st, segs, i + 1, method, values);
      if (r) return r;
    }
    if (n.param) {
      let v: string;
      try {
        v = decodeURIComponent(s);
      } catch {
        v = s;
      }
      values.push(v);
      const r = this.walk(n.param.node, segs, i + 1, method, values);
      if (r) return r;
      values.pop();
    }
    return null;
  }
}
