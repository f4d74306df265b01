/**
 * Request body reading (with a size limit) and the parameter helpers handlers use. Every helper
 * throws an ApiError naming the parameter, so bad input gets a clear 400 instead of a crash.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError, ERR } from './envelope.js';

/** Bodies larger than this get a 413 envelope. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true };

/** Reads the whole body; past the limit it keeps draining (so the client reads our answer) but stores nothing. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    let size = 0;
    let tooLarge = declared > limit;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(
        tooLarge ? { ok: false, tooLarge: true } : { ok: true, text: Buffer.concat(chunks).toString('utf8') },
      ),
    );
    req.on('error', reject);
  });
}

/** Parses a JSON body; an empty body is undefined. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw ApiError.of(
      ERR.badJson.status,
      ERR.badJson.code,
      `${ERR.badJson.message}: ${(err as Error).message}`,
    );
  }
}

/** The body as an object, or a 400 that says an object was expected. */
export function requireObject(body: unknown, what = 'The request body'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ApiError.badRequest(`${what} must be a JSON object.`);
  }
  return body as Record<string, unknown>;
}

/** A boolean query parameter (`true`/`false`), or undefined when absent. */
export function boolParam(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw ApiError.badRequest(`The query parameter ${name} must be true or false, not "${raw}".`);
}

/** One of a set of values (case-insensitive), or the default when absent. */
export function enumParam<T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
  def: T,
): T;
export function enumParam<T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
): T | undefined;
export function enumParam<T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
  def?: T,
): T | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return def;
  const found = values.find((v) => v === raw.toLowerCase());
  if (!found)
    throw ApiError.badRequest(
      `The query parameter ${name} must be one of ${values.join(', ')}, not "${raw}".`,
    );
  return found;
}
