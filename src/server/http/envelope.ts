/**
 * The v4 envelope: `{result, success, errors, messages, result_info?}`. Handlers return a Reply
 * (or throw an ApiError); the dispatcher turns either into bytes. Errors carry the real API's
 * codes where known (docs/reference/api-facts.md); the framework's own are in ERR.
 */
import type { Violation } from '../../rules/dns/index.js';

export interface ApiErrorItem {
  code: number;
  message: string;
  error_chain?: { code: number; message: string }[];
  source?: { pointer: string };
}

export interface ResultInfo {
  page: number;
  per_page: number;
  count: number;
  total_count: number;
  total_pages: number;
}

/** What a route handler returns. */
export interface Reply {
  status?: number;
  /** the envelope's result; ignored when `rawResult` is set */
  result?: unknown;
  /** the result already serialised to JSON (hot list paths build it by concatenation) */
  rawResult?: string;
  /** the whole success envelope, already encoded (cached hot reads); wins over everything else */
  bytes?: Buffer;
  resultInfo?: ResultInfo | Record<string, unknown>;
  headers?: Record<string, string>;
  /** true: 204 with an empty body (e.g. Page Shield policy delete) */
  empty?: boolean;
  /** the envelope's `messages` (informational notes, e.g. why a WAF migration check failed) */
  messages?: ApiMessage[];
}

/** One entry of the envelope's `messages`. */
export interface ApiMessage {
  code: number;
  message: string;
}

/** Codes the framework itself uses. */
export const ERR = {
  noRoute: { status: 404, code: 7000, message: 'No route for that URI' },
  badJson: { status: 400, code: 6007, message: 'Malformed JSON in request body' },
  tooLarge: { status: 413, code: 6008, message: 'Request body is larger than the limit' },
  missingAuth: {
    status: 400,
    code: 9106,
    message: 'Missing X-Auth-Key, X-Auth-Email or Authorization headers',
  },
  badAuth: { status: 401, code: 10000, message: 'Authentication error' },
  forbidden: { status: 403, code: 10000, message: 'Authentication error' },
  rateLimited: { status: 429, code: 971, message: 'Please wait and consider throttling your request speed' },
  unavailable: { status: 503, code: 10502, message: 'Service temporarily unavailable (injected fault)' },
  badRequest: { status: 400, code: 1000, message: 'Invalid request' },
  /** a Host header naming this server by a name nobody allowed (http/guards.ts) */
  hostNotAllowed: { status: 400, code: 1000, message: 'Invalid request' },
  /** a body sent with a content type other than application/json (http/guards.ts) */
  notJson: { status: 400, code: 1000, message: 'Invalid request' },
  internal: { status: 500, code: 10001, message: 'Internal error' },
} as const;

/** An error a handler throws; the dispatcher answers it as an error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiErrorItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join('; '));
  }

  static of(status: number, code: number, message: string, pointer?: string): ApiError {
    const item: ApiErrorItem = { code, message };
    if (pointer) item.source = { pointer };
    return new ApiError(status, [item]);
  }

  /** A 400 made of rule violations; `pointer` (e.g. `/posts/3`) says which part of the body. */
  static fromViolations(violations: Violation[], pointer?: string, status = 400): ApiError {
    return new ApiError(
      status,
      violations.map((v) => {
        const item: ApiErrorItem = { code: v.code, message: v.message };
        if (v.chain) item.error_chain = v.chain;
        if (pointer) item.source = { pointer };
        return item;
      }),
    );
  }

  /** A 400 "invalid request" that names the parameter or field. */
  static badRequest(message: string, pointer?: string): ApiError {
    return ApiError.of(400, ERR.badRequest.code, message, pointer);
  }

  /** The 7003 answer for a malformed or unknown identifier. */
  static badId(path: string, status = 400): ApiError {
    return ApiError.of(
      status,
      7003,
      `Could not route to ${path}, perhaps your object identifier is invalid?`,
    );
  }
}

export function ok(result: unknown, resultInfo?: ResultInfo | Record<string, unknown>): Reply {
  return resultInfo ? { result, resultInfo } : { result };
}

/** A page-style result_info (docs/reference/api-facts.md): total_pages is 0 for an empty collection. */
export function pageInfo(page: number, perPage: number, count: number, total: number): ResultInfo {
  return { page, per_page: perPage, count, total_count: total, total_pages: Math.ceil(total / perPage) };
}

export function successBody(reply: Reply): string {
  const result = reply.rawResult ?? JSON.stringify(reply.result ?? null);
  const info = reply.resultInfo ? `,"result_info":${JSON.stringify(reply.resultInfo)}` : '';
  const messages = JSON.stringify(reply.messages ?? []);
  return `{"result":${result},"success":true,"errors":[],"messages":${messages}${info}}`;
}

export function errorBody(errors: ApiErrorItem[]): string {
  return JSON.stringify({ result: null, success: false, errors, messages: [] });
}
