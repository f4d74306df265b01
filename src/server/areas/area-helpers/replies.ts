/**
 * Small helpers the areas (Page Shield, Logpush, WAF, pools, notifications) share: rule
 * violations as an error envelope, JSON columns, and not-found answers. Kept beside the areas, so
 * the framework (src/server/http) knows no area.
 */
import type { RequestContext } from '../../http/context.js';
import { ApiError, type ApiErrorItem } from '../../http/envelope.js';
import { ID32 } from '../../store/ids.js';
import { isObject } from '../../../rules/shared/values.js';

/** A rule violation from src/rules/: where (dotted path in the body) and what. */
export interface RuleViolation {
  path: string;
  message: string;
}

/**
 * A 400 listing every violation, each message prefixed with its path so a client that shows only
 * `message` still says where; `source.pointer` carries the same place as a JSON pointer.
 */
export function violationsError(violations: RuleViolation[], code: number, status = 400): ApiError {
  return new ApiError(
    status,
    violations.map((v): ApiErrorItem => {
      const item: ApiErrorItem = { code, message: v.path ? `${v.path}: ${v.message}` : v.message };
      if (v.path) item.source = { pointer: toPointer(v.path) };
      return item;
    }),
  );
}

/** `filter.where.and[2].operator` -> `/filter/where/and/2/operator` */
export function toPointer(path: string): string {
  return (
    '/' +
    path
      .replace(/\[(\d+)\]/g, '.$1')
      .split('.')
      .filter(Boolean)
      .join('/')
  );
}

/** Throws the 400 when there is at least one violation. */
export function assertValid(violations: RuleViolation[], code: number): void {
  if (violations.length > 0) throw violationsError(violations, code);
}

export function notFound(code: number, message: string): ApiError {
  return ApiError.of(404, code, message);
}

/**
 * A path identifier must have its area's shape before it is looked up: a malformed one is answered
 * 400 code 7003 "Could not route to ...", as zones, DNS records and Logpush jobs answer it, and only a
 * well-formed id that names nothing is the area's 404. The default shape is the 32-hex identifier.
 */
export function requireId(ctx: RequestContext, param: string, shape: RegExp = ID32): string {
  const id = ctx.params[param];
  if (!shape.test(id)) throw ApiError.badId(ctx.path);
  return id;
}

/** A notification policy id: a UUID (OpenAPI: "0da2b59e-f118-439d-8097-bdfb215203c9", max 36). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Parses a JSON column written by this code; a damaged value reads as the fallback, never a 500. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export { isObject as isPlainObject };
