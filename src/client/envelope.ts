/**
 * The v4 envelope: `{success, errors, messages, result, result_info?}`. This file only turns a body
 * into a typed value or says precisely why it is not one; deciding what is an error is http.ts's job.
 */

import type { ApiMessage, ResultInfo } from './types.js';

export interface Envelope {
  success: boolean;
  errors: ApiMessage[];
  messages: ApiMessage[];
  result: unknown;
  resultInfo?: ResultInfo;
}

/** Why a body is not an envelope; http.ts turns it into an ApiError with the status attached. */
export class NotAnEnvelope {
  constructor(readonly reason: string) {}
}

/** An empty body (204, or a bodiless 200) is a success without a result. */
export function parseEnvelope(text: string, contentType: string | undefined): Envelope | NotAnEnvelope {
  if (text.trim() === '') return { success: true, errors: [], messages: [], result: null };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const type = contentType ? contentType.split(';', 1)[0]!.trim() : 'no content-type';
    return new NotAnEnvelope(`non-JSON response (${type}, ${text.length} bytes: ${snippet(text)})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return new NotAnEnvelope('response is JSON but not an API envelope (not an object)');
  }
  const body = data as Record<string, unknown>;
  if (typeof body.success !== 'boolean') {
    return new NotAnEnvelope('response is JSON but not an API envelope (no boolean "success")');
  }
  return {
    success: body.success,
    errors: toMessages(body.errors),
    messages: toMessages(body.messages),
    result: body.result === undefined ? null : body.result,
    resultInfo: toResultInfo(body.result_info),
  };
}

/** Keeps the well-formed `{code, message}` entries; a server sending odd shapes still gets a message. */
function toMessages(value: unknown): ApiMessage[] {
  if (!Array.isArray(value)) return [];
  return value.map((item): ApiMessage => {
    if (typeof item === 'string') return { code: 0, message: item };
    if (typeof item !== 'object' || item === null) return { code: 0, message: String(item) };
    const m = item as Record<string, unknown>;
    const out: ApiMessage = {
      code: typeof m.code === 'number' ? m.code : Number(m.code) || 0,
      message: typeof m.message === 'string' ? m.message : '',
    };
    if (typeof m.documentation_url === 'string' && m.documentation_url) {
      out.documentation_url = m.documentation_url;
    }
    if (typeof m.source === 'object' && m.source !== null) out.source = m.source as { pointer?: string };
    const chain = toMessages(m.error_chain);
    if (chain.length > 0) out.error_chain = chain;
    return out;
  });
}

function toResultInfo(value: unknown): ResultInfo | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const info: ResultInfo = {};
  for (const key of ['page', 'per_page', 'count', 'total_count', 'total_pages'] as const) {
    const n = typeof v[key] === 'string' ? Number(v[key]) : v[key];
    if (typeof n === 'number' && Number.isFinite(n)) info[key] = n;
  }
  return info;
}

/** The start of a body, on one line, for an error message (an HTML error page says a lot in 80 chars). */
function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}...` : flat);
}
