/**
 * Request body reading (with a size limit) and the parameter helpers handlers use. Every helper
 * throws an ApiError naming the parameter, so bad input gets a clear 400 instead of a crash.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { MAX_NESTING_DEPTH } from '../../rules/shared/nesting.js';
import { scanBody } from './body-scan.js';
import { ApiError, ERR } from './envelope.js';

/** Bodies larger than this get a 413 envelope. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export type BodyResult =
  | {
      ok: true;
      text: string;
      /** the offset of the first byte that is not UTF-8, when the body is not (JSON text must be) */
      invalidUtf8At?: number;
    }
  | { ok: false; tooLarge: true };

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
    req.on('end', () => {
      if (tooLarge) return resolve({ ok: false, tooLarge: true });
      const bytes = Buffer.concat(chunks);
      const text = bytes.toString('utf8');
      resolve(
        isUtf8(bytes) ? { ok: true, text } : { ok: true, text, invalidUtf8At: firstNonUtf8Byte(bytes) },
      );
    });
    req.on('error', reject);
  });
}

/**
 * The offset of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlong forms,
 * no surrogates, nothing past U+10FFFF). Only asked about a body isUtf8 already found bad.
 */
function firstNonUtf8Byte(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const more =
      lead >= 0xc2 && lead <= 0xdf
        ? 1
        : lead >= 0xe0 && lead <= 0xef
          ? 2
          : lead >= 0xf0 && lead <= 0xf4
            ? 3
            : 0;
    if (more === 0) return i;
    // the second byte's range is narrower after these leads (overlong forms, surrogates, > U+10FFFF)
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= more; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += more + 1;
  }
  return bytes.length;
}

/**
 * Parses a JSON body; an empty body is undefined. Every body is checked here, once, before any
 * handler sees it: UTF-8 (`invalidUtf8At`, from readBody), nesting depth and lone surrogates
 * (body-scan.ts), then the JSON grammar.
 */
export function parseJsonBody(text: string, invalidUtf8At?: number): unknown {
  if (text.trim() === '') return undefined;
  if (invalidUtf8At !== undefined) {
    throw ApiError.of(
      ERR.badJson.status,
      ERR.badJson.code,
      `${ERR.badJson.message}: the body is not UTF-8 (the first bad byte is at offset ${invalidUtf8At}).`,
    );
  }
  const finding = scanBody(text);
  if (finding?.kind === 'too-deep') {
    throw ApiError.badRequest(
      `The request body nests deeper than the limit of ${MAX_NESTING_DEPTH} levels at ${finding.pointer}.`,
      finding.pointer,
    );
  }
  if (finding?.kind === 'lone-surrogate') {
    throw ApiError.of(
      ERR.badJson.status,
      ERR.badJson.code,
      `${ERR.badJson.message}: the string at ${finding.pointer || 'the top level'} holds a lone UTF-16 surrogate escape (such as \\ud800), which is not Unicode text.`,
      finding.pointer,
    );
  }
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
