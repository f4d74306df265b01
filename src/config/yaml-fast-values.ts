/**
 * The one-line pieces of the block-YAML fast path (./yaml-fast-path.ts): plain keys, the value
 * written after a key or a `- ` (plain, single- or double-quoted scalars, one-line flow collections)
 * and plain scalars read as the YAML 1.2 core schema reads them. Each gives the value the YAML path
 * would, or throws GiveUp for anything else, which sends the file the YAML way.
 */

export class GiveUp {}
export const giveUp = (): never => {
  throw new GiveUp();
};

export const SPACE = 0x20;
export const HASH = 0x23;
export const DASH = 0x2d;
const COLON = 0x3a;

/** Plain keys the YAML path reads as null or a boolean (a null key becomes '' there). */
const NOT_STRING_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** A character of a plain key: letters, digits and `_` (and, after the first, `. / -`). */
function isKeyStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}
const isKeyChar = (c: number) => isKeyStart(c) || c === 0x2e || c === 0x2f || c === DASH;

/**
 * Where the `:` of a plain key at `start` is (the key being letters, digits and `_ . / -`, not
 * starting with `. / -`, and the `:` followed by a space or the end at `end`), or -1.
 */
export function plainKeyEnd(text: string, start: number, end: number): number {
  if (start >= end || !isKeyStart(text.charCodeAt(start))) return -1;
  let i = start + 1;
  while (i < end && isKeyChar(text.charCodeAt(i))) i++;
  if (i >= end || text.charCodeAt(i) !== COLON) return -1;
  return i + 1 === end || text.charCodeAt(i + 1) === SPACE ? i : -1;
}

/** A key this reader can take as it is written. */
export function plainKey(key: string, seen: Record<string, unknown>): string {
  if (NOT_STRING_KEYS.has(key) || key === '__proto__' || Object.prototype.hasOwnProperty.call(seen, key)) {
    giveUp();
  }
  // a key such as `300` or `1.5` is a number to the YAML path
  const first = key.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39 && plain(key, false) !== key) giveUp();
  return key;
}

/**
 * Nothing but spaces and perhaps a comment (a `#` after a space) from `from` to `end`: the
 * regular expression `^(?: *| +#.*)$`, whose `.` takes no line separator (U+2028, U+2029).
 */
export function isBlank(text: string, from: number, end: number): boolean {
  let i = from;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  if (i === end) return true;
  if (i === from || text.charCodeAt(i) !== HASH) return false;
  for (i++; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2028 || c === 0x2029) return false;
  }
  return true;
}

/** Trailing spaces off. Not trimEnd(): YAML keeps the other white space (NBSP, U+3000, form feed...). */
const trimSpaces = (text: string) =>
  text.charCodeAt(text.length - 1) === 0x20 ? text.replace(/ +$/, '') : text;

/** A scalar or one-line flow collection filling the rest of a line (spaces and a comment may follow). */
export function inlineValue(text: string, depth: number, maxDepth: number): unknown {
  const cursor = { text, at: 0 };
  skipSpaces(cursor);
  const c = text[cursor.at];
  let value: unknown;
  if (c === '"' || c === "'") value = quoted(cursor);
  else if (c === '{' || c === '[') value = flow(cursor, depth, maxDepth);
  else {
    // a plain scalar runs to a comment or the end of the line
    const hash = text.indexOf(' #', cursor.at);
    return plain(trimSpaces(text.slice(cursor.at, hash < 0 ? text.length : hash)), false);
  }
  if (!isBlank(text, cursor.at, text.length)) giveUp();
  return value;
}

interface Cursor {
  text: string;
  at: number;
}

function skipSpaces(c: Cursor): void {
  while (c.text.charCodeAt(c.at) === 0x20) c.at++;
}

/** A single- or double-quoted scalar on one line. */
function quoted(c: Cursor): string {
  const q = c.text[c.at]!;
  const start = c.at + 1;
  if (q === "'") {
    let i = start;
    for (;;) {
      const j = c.text.indexOf("'", i);
      if (j < 0) giveUp();
      if (c.text[j + 1] === "'") {
        i = j + 2;
        continue;
      }
      c.at = j + 1;
      return c.text.slice(start, j).replaceAll("''", "'");
    }
  }
  let i = start;
  while (i < c.text.length && c.text[i] !== '"') {
    if (c.text[i] === '\\') {
      // the escapes JSON and YAML read alike; YAML's others (\x, \U, \N, \e, ...) go the YAML way
      if (!/["\\/bfnrtu]/.test(c.text[i + 1] ?? '')) giveUp();
      i += 2;
    } else i++;
  }
  if (i >= c.text.length) giveUp();
  c.at = i + 1;
  try {
    return JSON.parse(c.text.slice(start - 1, i + 1)) as string;
  } catch {
    return giveUp();
  }
}

/** A flow mapping or sequence that closes on the same line. */
function flow(c: Cursor, depth: number, maxDepth: number): unknown {
  if (depth >= maxDepth) giveUp();
  const isMap = c.text[c.at] === '{';
  const close = isMap ? '}' : ']';
  c.at++;
  const map: Record<string, unknown> = {};
  const list: unknown[] = [];
  skipSpaces(c);
  if (c.text[c.at] === close) {
    c.at++;
    return isMap ? map : list;
  }
  for (;;) {
    skipSpaces(c);
    if (isMap) {
      const colon = plainKeyEnd(c.text, c.at, c.text.length);
      if (colon < 0) giveUp();
      const key = plainKey(c.text.slice(c.at, colon), map);
      c.at = colon + 1;
      map[key] = flowValue(c, depth, maxDepth);
    } else {
      list.push(flowValue(c, depth, maxDepth));
    }
    skipSpaces(c);
    const next = c.text[c.at];
    c.at++;
    if (next === close) return isMap ? map : list;
    if (next !== ',') giveUp();
    skipSpaces(c);
    // a trailing comma, or a comma with nothing before it
    if (c.text[c.at] === close || c.text[c.at] === ',') giveUp();
  }
}

function flowValue(c: Cursor, depth: number, maxDepth: number): unknown {
  skipSpaces(c);
  const ch = c.text[c.at];
  if (ch === '"' || ch === "'") return quoted(c);
  if (ch === '{' || ch === '[') return flow(c, depth + 1, maxDepth);
  let end = c.at;
  while (end < c.text.length && !',[]{}'.includes(c.text[end]!)) end++;
  const text = trimSpaces(c.text.slice(c.at, end));
  // a bracket inside, or a comment, is more than a one-line flow scalar
  if (c.text[end] === '[' || c.text[end] === '{' || text.includes(' #')) giveUp();
  c.at = end;
  return plain(text, true);
}

/** Plain (unquoted) scalar text to its value under the YAML 1.2 core schema, as the YAML path reads it. */
export function plain(text: string, inFlow: boolean): unknown {
  if (text === '') return inFlow ? giveUp() : null;
  // indicators that give a plain scalar another meaning, or are not allowed to start one
  const first = text.charCodeAt(0);
  if (isIndicator(first) && !(first === DASH && isDigit(text.charCodeAt(1)))) giveUp();
  // `key: value` inside a value, or a colon at its end (in a flow collection, also before a `,`
  // or a bracket, where the scalar was cut), is YAML structure, not text
  if (text.includes(': ') || text.endsWith(':')) giveUp();
  switch (text) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
  }
  // every number form starts with a digit, a sign or a dot: other text is a string without a look
  const mayBeNumber = isDigit(first) || first === PLUS || first === DASH || first === DOT;
  if (!mayBeNumber) return text;
  const unsigned = first === PLUS || first === DASH ? 1 : 0;
  let i = unsigned;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  if (i === text.length && i > unsigned) {
    // decimal integers without a sign or leading zero (other forms go the YAML way)
    if (first === PLUS || (text.charCodeAt(unsigned) === 0x30 && text !== '0')) giveUp();
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : giveUp();
  }
  // the other number forms below, looked for only in text that may be one of them (an address such
  // as 192.0.2.1 or 2001:db8::1 is not)
  if (!mayBeOtherNumber(text, unsigned)) return text;
  if (
    /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text) ||
    /^0[ox]/.test(text) ||
    /^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(text)
  ) {
    if (!/^-?(?:0|[1-9][0-9]*)\.[0-9]+$/.test(text)) giveUp();
    return Number(text);
  }
  return text;
}

const PLUS = 0x2b;
const DOT = 0x2e;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Characters that give a plain scalar another meaning, or may not start one: -?:,[]{}#&*!|>'"%@` */
function isIndicator(c: number): boolean {
  switch (c) {
    case DASH:
    case 0x3f: // ?
    case COLON:
    case 0x2c: // ,
    case 0x5b: // [
    case 0x5d: // ]
    case 0x7b: // {
    case 0x7d: // }
    case HASH:
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case 0x27: // '
    case 0x22: // "
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
      return true;
    default:
      return false;
  }
}

/**
 * Whether `text` (its sign, if any, before `unsigned`) may be a float, `0x`/`0o` or `.inf`/`.nan`:
 * a float has only digits, `.`, `e`, `E` and signs, with one `.` at most; the others start so.
 */
function mayBeOtherNumber(text: string, unsigned: number): boolean {
  if (text.charCodeAt(unsigned) === DOT) return true;
  const second = text.charCodeAt(1);
  if (text.charCodeAt(0) === 0x30 && (second === 0x6f || second === 0x78)) return true;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === DOT) {
      if (++dots > 1) return false;
    } else if (!isDigit(c) && c !== 0x65 && c !== 0x45 && c !== PLUS && c !== DASH) return false;
  }
  return true;
}
