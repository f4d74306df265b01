/**
 * The one-line pieces of the block-YAML fast path (./yaml-fast-path.ts): plain keys, the value
 * written after a key or a `- ` (plain, single- or double-quoted scalars, one-line flow collections,
 * anchors and aliases) and plain scalars, typed by ./yaml-scalars.ts. Each gives the value the YAML
 * path would, or throws GiveUp for anything else, which sends the file the YAML way.
 */
import { plainScalarValue, readsAsString } from './yaml-scalars.js';

export class GiveUp {}
export const giveUp = (): never => {
  throw new GiveUp();
};

export const SPACE = 0x20;
export const HASH = 0x23;
export const DASH = 0x2d;
const COLON = 0x3a;
export const AMPERSAND = 0x26;
export const ASTERISK = 0x2a;

/** yaml's bound on alias expansion (uses of an anchor times the aliases inside it); 100 is its default. */
export const MAX_ALIAS_COUNT = 100;

/**
 * The anchors of one file (`&name value`) and their aliases (`*name`), as the YAML path reads
 * them: an alias is the value of the last anchor of its name before it (the very object, for a
 * collection), and the `yaml` package refuses a file whose anchor and its aliases count more than
 * MAX_ALIAS_COUNT ("billion laughs": it counts the anchor itself, so 99 aliases at most). Each
 * alias costs one look-up, so a file with anchors reads in the time of the same file written out. An anchored value that holds an alias (whose
 * expansion the `yaml` package counts otherwise), an alias of no anchor before it, and an alias
 * past the bound go the YAML way, which reads or reports them.
 */
export class Anchors {
  private readonly values = new Map<string, unknown>();
  private readonly uses = new Map<string, number>();
  /** aliases read so far: define() compares it with the count before the anchored value */
  aliases = 0;

  define(name: string, value: unknown, aliasesBefore: number): void {
    if (this.aliases !== aliasesBefore) giveUp();
    this.values.set(name, value);
    this.uses.set(name, 1);
  }

  alias(name: string): unknown {
    const uses = this.uses.get(name);
    if (uses === undefined || uses >= MAX_ALIAS_COUNT) giveUp();
    this.uses.set(name, uses! + 1);
    this.aliases++;
    return this.values.get(name);
  }
}

/**
 * Where the name of an anchor or alias whose `&` or `*` is at `at` ends: letters, digits and
 * `_ . -` (YAML allows more, which goes the YAML way); a name must have one.
 */
export function anchorNameEnd(text: string, at: number): number {
  let i = at + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isKeyStart(c) && c !== 0x2e && c !== DASH) break;
  }
  return i === at + 1 ? giveUp() : i;
}

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
  if (key === '__proto__' || Object.prototype.hasOwnProperty.call(seen, key)) giveUp();
  // a key such as `300`, `1.5` or `true` is another value to the YAML path (a null key becomes '')
  if (!readsAsString(key)) giveUp();
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
export function inlineValue(text: string, depth: number, maxDepth: number, anchors: Anchors): unknown {
  const cursor = { text, at: 0, anchors };
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
  anchors: Anchors;
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
  if (ch === '*' || ch === '&') return anchored(c, depth, maxDepth);
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

/**
 * An alias (`*name`, then a space, a `,` or the end of its collection) or an anchored value
 * (`&name value`) in a flow collection.
 */
function anchored(c: Cursor, depth: number, maxDepth: number): unknown {
  const sigil = c.text.charCodeAt(c.at);
  const end = anchorNameEnd(c.text, c.at);
  const name = c.text.slice(c.at + 1, end);
  const next = c.text[end];
  c.at = end;
  if (sigil === ASTERISK) {
    if (next !== ' ' && next !== ',' && next !== ']' && next !== '}') giveUp();
    return c.anchors.alias(name);
  }
  if (next !== ' ') giveUp();
  skipSpaces(c);
  // an anchor of nothing, of an alias or twice anchored: the YAML path's business
  if (',]}&*'.includes(c.text[c.at] ?? ',')) giveUp();
  const before = c.anchors.aliases;
  const value = flowValue(c, depth, maxDepth);
  c.anchors.define(name, value, before);
  return value;
}

/** Plain (unquoted) scalar text to its value (./yaml-scalars.ts), once its structure is read. */
export function plain(text: string, inFlow: boolean): unknown {
  if (text === '') return inFlow ? giveUp() : null;
  // indicators that give a plain scalar another meaning, or are not allowed to start one
  const first = text.charCodeAt(0);
  if (isIndicator(first) && !(first === DASH && isDigit(text.charCodeAt(1)))) giveUp();
  // `key: value` inside a value, or a colon at its end (in a flow collection, also before a `,`
  // or a bracket, where the scalar was cut), is YAML structure, not text
  if (text.includes(': ') || text.endsWith(':')) giveUp();
  return plainScalarValue(text);
}

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
