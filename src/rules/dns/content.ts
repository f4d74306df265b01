/**
 * Per-type record values: `content` for the simple types, `data` for the structured ones, and the
 * conversion between the two (a structured record's `content` is its data in zone-file order, and
 * a client may send either). Each check returns the stored value or the violation.
 */
import { parseAddress } from './ip.js';
import { isHostname, normaliseHostname } from './names.js';
import { modelOf, RECORD_MODEL, type DataFieldKind, type RecordTypeModel } from './model.js';
import { withArticle } from './types.js';
import { CODES, LOCAL_CODES, dnsError, isViolation, type Violation } from './violation.js';

/** The value of a record as stored and returned. */
export interface RecordValue {
  content: string;
  /** structured types only */
  data?: Record<string, string | number>;
  /** the types with a priority (./model.ts) only */
  priority?: number;
}

/** Field order is zone-file order: it is both how `content` is built and how it is parsed. */
export const DATA_FIELDS: Readonly<Record<string, readonly (readonly [string, DataFieldKind])[]>> =
  Object.fromEntries(
    Object.entries(RECORD_MODEL as Record<string, RecordTypeModel>).flatMap(([type, m]) =>
      m.data ? [[type, m.data]] : [],
    ),
  );

/**
 * The `data` fields that hold a host name in some type (SRV/SVCB/HTTPS `target`, NAPTR
 * `replacement`): compared without case and final dot, and `.` when empty.
 */
export const HOST_DATA_FIELDS: ReadonlySet<string> = new Set(
  Object.values(DATA_FIELDS).flatMap((fields) =>
    fields.filter(([, kind]) => kind === 'host').map(([n]) => n),
  ),
);

export function hasData(type: string): boolean {
  return type in DATA_FIELDS;
}

/** SRV: the priority is the first `data` field, and its content text leaves it out. */
const priorityInData = (type: string) => modelOf(type)?.priority === 'in-data';

/** SVCB/HTTPS: a last `text` field takes every remaining token of the content, and may be absent. */
export function hasOpenTail(type: string): boolean {
  return DATA_FIELDS[type]?.at(-1)?.[1] === 'text';
}

const MAX_TXT = 2048;

/** Splits zone-file text on blanks, keeping "double quoted" parts (with \" escapes) whole. */
export function tokenize(text: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i])) {
      i++;
      continue;
    }
    if (text[i] === '"') {
      let s = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        s += text[i++];
      }
      if (i >= text.length) return null;
      i++;
      out.push(s);
    } else {
      let s = '';
      while (i < text.length && !/\s/.test(text[i])) s += text[i++];
      out.push(s);
    }
  }
  return out;
}

function bad(type: string, message: string): Violation {
  return dnsError(LOCAL_CODES.badData, `Invalid ${type} record: ${message}`);
}

function checkField(
  type: string,
  field: string,
  kind: DataFieldKind,
  raw: unknown,
): string | number | Violation {
  const where = `data.${field}`;
  if (kind === 'u8' || kind === 'u16') {
    const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
    const max = kind === 'u8' ? 255 : 65535;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max) {
      return bad(type, `${where} must be an integer from 0 to ${max}, not ${JSON.stringify(raw ?? null)}.`);
    }
    return n;
  }
  if (typeof raw !== 'string') {
    if (kind === 'text' && (raw === undefined || raw === null)) return '';
    return bad(type, `${where} must be a string, not ${JSON.stringify(raw ?? null)}.`);
  }
  const s = raw.trim();
  switch (kind) {
    case 'host':
      if (s === '.' || s === '') return '.';
      if (!isHostname(s)) return bad(type, `${where} "${s}" is not a valid host name.`);
      return normaliseHostname(s);
    case 'hex':
      if (!/^[0-9a-fA-F]+$/.test(s)) return bad(type, `${where} must be hexadecimal.`);
      return s.toLowerCase();
    case 'base64': {
      const b = s.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b)) return bad(type, `${where} must be base64.`);
      return b;
    }
    case 'caa-tag':
      if (!/^[a-zA-Z0-9]+$/.test(s)) {
        return bad(type, `${where} must be a property tag such as issue, issuewild or iodef.`);
      }
      return s.toLowerCase();
    case 'quoted':
      if (field === 'target' && s === '') return bad(type, `${where} is required.`);
      return raw;
    default:
      return raw;
  }
}

/** The zone-file content of structured data, e.g. SRV "5 5060 sip.example.com" (priority apart). */
export function formatContent(type: string, data: Record<string, string | number>): string {
  const fields = DATA_FIELDS[type];
  const parts: string[] = [];
  for (const [name, kind] of fields) {
    if (priorityInData(type) && name === 'priority') continue;
    const v = data[name];
    if (kind === 'quoted') parts.push('"' + String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"');
    else if (kind === 'text' && v === '') continue;
    else parts.push(String(v));
  }
  return parts.join(' ');
}

/** Structured data from content text: the inverse of formatContent. */
export function parseContent(
  type: string,
  content: string,
  priority: unknown,
): Record<string, unknown> | Violation {
  const tokens = tokenize(content);
  if (!tokens) return bad(type, 'content has an unterminated quote.');
  const fields = DATA_FIELDS[type].map(([n]) => n);
  // SRV content is "weight port target" with priority apart, or all four.
  if (priorityInData(type) && tokens.length === fields.length - 1) {
    tokens.unshift(priority === undefined ? '' : String(priority));
  }
  const last = fields.length - 1;
  // SVCB/HTTPS: the value is every remaining token (key=value pairs); it may be absent.
  if (hasOpenTail(type) && tokens.length >= last) {
    tokens.splice(last, tokens.length - last, tokens.slice(last).join(' '));
  }
  if (tokens.length !== fields.length) {
    return bad(
      type,
      `content "${content}" must have ${fields.length} parts (${fields.join(' ')}); send "data" instead for clarity.`,
    );
  }
  const out: Record<string, unknown> = {};
  fields.forEach((f, i) => (out[f] = tokens[i]));
  return out;
}

/** Checks structured data (from `data`, else parsed from `content`) and builds the stored value. */
function structuredValue(
  type: string,
  input: { content?: unknown; data?: unknown; priority?: unknown },
): RecordValue | Violation {
  let raw: Record<string, unknown>;
  if (input.data !== undefined && input.data !== null) {
    if (typeof input.data !== 'object' || Array.isArray(input.data)) {
      return bad(type, '"data" must be an object.');
    }
    raw = { ...(input.data as Record<string, unknown>) };
    if (priorityInData(type) && raw.priority === undefined && input.priority !== undefined)
      raw.priority = input.priority;
  } else if (typeof input.content === 'string' && input.content.trim() !== '') {
    const parsed = parseContent(type, input.content.trim(), input.priority);
    if (isViolation(parsed)) return parsed;
    raw = parsed;
  } else {
    const names = DATA_FIELDS[type].map(([n]) => n).join(', ');
    return bad(type, `"data" with ${names} is required.`);
  }
  const data: Record<string, string | number> = {};
  for (const [name, kind] of DATA_FIELDS[type]) {
    const v = checkField(type, name, kind, raw[name]);
    if (typeof v === 'object') return v;
    data[name] = v;
  }
  const value: RecordValue = { content: formatContent(type, data), data };
  if (priorityInData(type)) value.priority = data.priority as number;
  if (modelOf(type)?.priority === 'beside') {
    const p = checkPriority(type, input.priority);
    if (typeof p !== 'number') return p;
    value.priority = p;
  }
  return value;
}

function checkPriority(type: string, priority: unknown): number | Violation {
  const n = typeof priority === 'string' && /^\d+$/.test(priority) ? Number(priority) : priority;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 65535) {
    return dnsError(
      LOCAL_CODES.badPriority,
      `${withArticle(type, true)} record needs "priority", an integer from 0 to 65535 (got ${JSON.stringify(priority ?? null)}).`,
    );
  }
  return n;
}

/**
 * Checks the value of a record of a known type and returns what to store.
 * `name` is the full record name (a CNAME may not point at itself); `proxied` decides whether
 * non-routable addresses are refused.
 */
export function checkValue(
  type: string,
  input: { content?: unknown; data?: unknown; priority?: unknown },
  name: string,
  proxied: boolean,
): RecordValue | Violation {
  if (hasData(type)) return structuredValue(type, input);
  const content = input.content;
  if (content === undefined || content === null || (typeof content === 'string' && content.trim() === '')) {
    return dnsError(LOCAL_CODES.badContent, `${withArticle(type, true)} record needs "content".`);
  }
  if (typeof content !== 'string') {
    return dnsError(LOCAL_CODES.badContent, `"content" must be a string, not ${JSON.stringify(content)}.`);
  }
  const text = content.trim();
  const kind = modelOf(type)?.content;
  switch (kind) {
    case 'ipv4':
    case 'ipv6': {
      // parsed once for the form and both range checks: this runs for every address of a file
      const address = parseAddress(text, kind === 'ipv6');
      if (address === null) {
        return kind === 'ipv4'
          ? dnsError(
              CODES.badIpv4,
              `Content for ${type} record must be a valid IPv4 address (got "${text}").`,
            )
          : dnsError(
              CODES.badIpv6,
              `Content for ${type} record must be a valid IPv6 address (got "${text}").`,
            );
      }
      const { canonical, providerRange: range } = address;
      if (range) {
        return dnsError(
          CODES.proxiedTarget,
          `Target ${canonical} is not allowed: it belongs to the service's own network (${range}).`,
        );
      }
      if (proxied && address.nonRoutable) {
        return dnsError(CODES.proxiedTarget, `Target ${canonical} is not allowed for a proxied record.`);
      }
      return { content: canonical };
    }
    case 'alias': {
      if (!isHostname(text)) {
        return dnsError(
          CODES.badCnameContent,
          `Content for ${type} record must be a valid host name (got "${text}").`,
        );
      }
      const target = normaliseHostname(text);
      if (target === name) {
        return dnsError(
          CODES.badCnameContent,
          `${withArticle(type, true)} record cannot point to itself (${name}).`,
        );
      }
      return { content: target };
    }
    case 'mail': {
      if (!isHostname(text) && text !== '.') {
        return dnsError(CODES.mxNotHostname, `${type} content must be a hostname (got "${text}").`);
      }
      const p = checkPriority(type, input.priority);
      if (typeof p !== 'number') return p;
      return { content: text === '.' ? '.' : normaliseHostname(text), priority: p };
    }
    case 'host':
      if (!isHostname(text)) {
        return dnsError(
          LOCAL_CODES.badContent,
          `Content for ${type} record must be a host name (got "${text}").`,
        );
      }
      return { content: normaliseHostname(text) };
    case 'base64':
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text.replace(/\s+/g, ''))) {
        return dnsError(LOCAL_CODES.badContent, `Content for ${type} record must be base64.`);
      }
      return { content: text.replace(/\s+/g, '') };
    default:
      // `text` (TXT and SOA): free text. The real API keeps TXT content as sent.
      if (content.length > MAX_TXT) {
        return dnsError(
          LOCAL_CODES.badContent,
          `${type} content is ${content.length} characters; the limit is ${MAX_TXT}.`,
        );
      }
      return { content };
  }
}
