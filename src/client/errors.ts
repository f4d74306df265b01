/**
 * ApiError: every failed API call, whatever went wrong (an error envelope, a body that is not an
 * envelope, a timeout, a refused connection), as one typed error with a one-line message such as
 * `POST /zones/:id/dns_records -> 400 81057 Record already exists.`
 */

import { UserError } from '../errors.js';
import { redact } from '../redact.js';
import { templatePath } from './path-template.js';
import type { ApiMessage } from './types.js';

export interface ApiErrorInit {
  method: string;
  /** the request path as sent (ids are templated here) */
  path: string;
  /** HTTP status; 0 when no response arrived */
  status: number;
  /** the envelope's `errors`, each possibly carrying an `error_chain` */
  errors?: ApiMessage[];
  /** what went wrong when there is no error envelope: `connection failed: ECONNREFUSED (...)` */
  detail?: string;
  outcomeUnknown?: boolean;
  retries?: number;
  /** set when the client stopped because every allowed attempt failed */
  gaveUpAfter?: number;
  cause?: unknown;
  /** what to do about it, when the client can tell (a base URL without `/client/v4`) */
  hint?: string;
}

/** Codes of writes refused because the object is already as asked or already gone (docs/reference/api-facts.md). */
const ALREADY_TRUE_CODES = [81057, 81058, 81044, 1061];

export class ApiError extends UserError {
  readonly method: string;
  /** templated: 32-hex and numeric ids read `:id`, no query string */
  readonly path: string;
  readonly status: number;
  /** every message of `errors`, followed depth-first by the entries of their `error_chain`s */
  readonly errors: ApiMessage[];
  /**
   * True when the request may have been applied although it failed: a timeout or a reset after it
   * was sent, or a 5xx answer to a POST/PATCH. The caller re-reads instead of repeating a create.
   */
  readonly outcomeUnknown: boolean;
  /**
   * True when the API refused a write because what it asks is already true: the object already
   * exists as asked (DNS 81057, 81058; a zone's 1061) or is already gone (a DELETE answered 404,
   * DNS 81044). Another runner got there first; the reconciler re-reads and re-plans as for an
   * unknown outcome, and counts what is already true as done rather than failed.
   */
  readonly alreadyTrue: boolean;
  readonly retries: number;

  constructor(init: ApiErrorInit) {
    super(formatApiError(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.method = init.method.toUpperCase();
    this.path = templatePath(init.path);
    this.status = init.status;
    this.errors = flatten(init.errors ?? []);
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.alreadyTrue =
      this.method !== 'GET' &&
      ((this.method === 'DELETE' && this.status === 404) || ALREADY_TRUE_CODES.some((c) => this.hasCode(c)));
    this.retries = init.retries ?? 0;
  }

  /** Whether the API answered with this error code anywhere, chains included (e.g. 81057 duplicate). */
  hasCode(code: number): boolean {
    return this.errors.some((e) => e.code === code);
  }
}

/** `GET /zones -> 404 7003 Could not route ...; 7000 No route for that URI (gave up after 5 attempts)` */
export function formatApiError(init: ApiErrorInit): string {
  const what = init.status > 0 ? statusPart(init) : (init.detail ?? 'no response');
  const notes: string[] = [];
  if (init.outcomeUnknown) {
    const retried = init.gaveUpAfter !== undefined && init.gaveUpAfter > 1;
    notes.push(
      `outcome unknown: the request may have been applied${retried ? '' : ', so it was not retried'}`,
    );
  }
  if (init.gaveUpAfter !== undefined && init.gaveUpAfter > 1)
    notes.push(`gave up after ${init.gaveUpAfter} attempts`);
  const suffix = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  const hint = init.hint ? `; ${init.hint}` : '';
  const line = `${init.method.toUpperCase()} ${templatePath(init.path)} -> ${what}${suffix}${hint}`;
  // One line whatever the server put in its messages; secrets out last, as everywhere.
  return redact(line.replace(/[\r\n]+/g, ' '));
}

/**
 * Node's reason phrases, from node:http, loaded when an error needs one: this module is loaded by
 * every command (the zones kind names it), and node:http is a good part of a `validate`'s start-up.
 */
const statusText = (status: number): string | undefined =>
  process.getBuiltinModule('node:http').STATUS_CODES[status];

function statusPart(init: ApiErrorInit): string {
  const messages = formatMessages(init.errors ?? []);
  const text = messages || init.detail || statusText(init.status) || 'error';
  return `${init.status} ${text}`;
}

/** `1004 DNS Validation Error (9004 This kind of record cannot be proxied)`; several joined with `; `. */
export function formatMessages(messages: ApiMessage[]): string {
  return messages
    .map((m) => {
      const head = [m.code ? String(m.code) : '', m.message.trim()].filter(Boolean).join(' ');
      const chain = m.error_chain && m.error_chain.length > 0 ? ` (${formatMessages(m.error_chain)})` : '';
      return `${head}${chain}`;
    })
    .filter(Boolean)
    .join('; ');
}

function flatten(messages: ApiMessage[]): ApiMessage[] {
  return messages.flatMap((m) => [m, ...flatten(m.error_chain ?? [])]);
}
