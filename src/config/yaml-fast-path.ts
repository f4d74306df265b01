/**
 * The shape most desired-state files have (block mappings and sequences, one-line scalars, one-line
 * flow collections such as `{ name: www, type: A }`, comments) read without the YAML library, whose
 * full tree is most of the time and the garbage of loading a big file: a 10,000-record file loads
 * several times faster. Locations still come from a YAML parse, made only when one is asked for.
 *
 * The fast path is taken only when it gives exactly what the YAML path gives. At the first thing
 * outside that shape (anchors, tags, block or multi-line scalars, quoted keys, duplicate or merge
 * keys, numbers in any but the plain decimal forms, tabs, CR line ends, a second document, nesting
 * past the limit...) it gives up, and the YAML path reads the file and reports any problem with its
 * position. A test holds the two to each other on generated files.
 */

/** The parsed value, or undefined when the text must go the YAML way. */
export function parseBlockYamlFast(text: string, maxDepth: number): unknown {
  if (text.includes('\t') || text.includes('\r')) return undefined;
  try {
    return new BlockReader(text, maxDepth).document();
  } catch (err) {
    if (err instanceof GiveUp) return undefined;
    throw err;
  }
}

class GiveUp {}
const giveUp = (): never => {
  throw new GiveUp();
};

const SPACE = 0x20;
const HASH = 0x23;
const DASH = 0x2d;
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
function plainKeyEnd(text: string, start: number, end: number): number {
  if (start >= end || !isKeyStart(text.charCodeAt(start))) return -1;
  let i = start + 1;
  while (i < end && isKeyChar(text.charCodeAt(i))) i++;
  if (i >= end || text.charCodeAt(i) !== COLON) return -1;
  return i + 1 === end || text.charCodeAt(i + 1) === SPACE ? i : -1;
}

/** A key this reader can take as it is written. */
function plainKey(key: string, seen: Record<string, unknown>): string {
  if (NOT_STRING_KEYS.has(key) || key === '__proto__' || Object.prototype.hasOwnProperty.call(seen, key)) {
    giveUp();
  }
  // a key such as `300` or `1.5` is a number to the YAML path
  const first = key.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39 && plain(key, false) !== key) giveUp();
  return key;
}

/**
 * The lines of the text that hold something, as offsets into it (no copy of a line is made: a file
 * of 10,000 records has some 50,000 lines): the indentation, where the content starts and where the
 * line ends.
 */
class BlockReader {
  private readonly indents: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly count: number;
  private pos = 0;
  /** keys met so far, by length (short keys only) */
  private readonly knownKeys: string[][] = Array.from({ length: 24 }, () => []);

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {
    const n = text.length;
    for (let lineStart = 0; lineStart <= n;) {
      let end = text.indexOf('\n', lineStart);
      if (end < 0) end = n;
      let first = lineStart;
      while (first < end && text.charCodeAt(first) === SPACE) first++;
      if (first < end && text.charCodeAt(first) !== HASH) {
        // document markers and directives
        if (
          first === lineStart &&
          (text.startsWith('---', first) || text.startsWith('...', first) || text.charCodeAt(first) === 0x25)
        ) {
          giveUp();
        }
        this.indents.push(first - lineStart);
        this.starts.push(first);
        this.ends.push(end);
      }
      lineStart = end + 1;
    }
    this.count = this.indents.length;
  }

  document(): unknown {
    if (this.count === 0 || this.indents[0] !== 0 || this.isSeqItem(0)) giveUp();
    const value = this.mapping(0, 1);
    if (this.pos !== this.count) giveUp();
    return value;
  }

  /**
   * The plain key from `start` to `colon` (plainKey): a key met before is given again without a
   * copy or a look at its spelling (a file of 10,000 records has `name`, `type`, `content`... on
   * 50,000 lines), with only the check that `seen` does not hold it yet.
   */
  private keyAt(start: number, colon: number, seen: Record<string, unknown>): string {
    const known = this.knownKeys[colon - start];
    if (known) {
      for (let k = 0; k < known.length; k++) {
        const key = known[k]!;
        if (!this.text.startsWith(key, start)) continue;
        if (Object.prototype.hasOwnProperty.call(seen, key)) giveUp();
        return key;
      }
    }
    const key = plainKey(this.text.slice(start, colon), seen);
    if (known && known.length < 8) known.push(key);
    return key;
  }

  /** `-` alone or followed by a space: a sequence item. */
  private isSeqItem(line: number): boolean {
    const start = this.starts[line]!;
    if (this.text.charCodeAt(start) !== DASH) return false;
    return start + 1 === this.ends[line] || this.text.charCodeAt(start + 1) === SPACE;
  }

  /** The value of a key, on the lines below it (at `indent`, deeper than the key's `keyIndent`). */
  private block(indent: number, keyIndent: number, depth: number): unknown {
    if (this.isSeqItem(this.pos)) return this.sequence(indent, depth);
    const start = this.starts[this.pos]!;
    const c = this.text.charCodeAt(start);
    if (c === 0x7b || c === 0x5b) {
      // a flow collection on a line of its own, closed on that line
      const end = this.ends[this.pos]!;
      this.pos++;
      const value = inlineValue(this.text.slice(start, end), depth, this.maxDepth);
      this.nothingDeeper(keyIndent);
      return value;
    }
    return this.mapping(indent, depth);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    // (>=: a collection at the limit may hold values past it, which the YAML path reports)
    if (depth >= this.maxDepth) giveUp();
    const out: Record<string, unknown> = {};
    while (this.pos < this.count) {
      const lineIndent = this.indents[this.pos]!;
      if (lineIndent < indent) break;
      // a deeper line, or a sequence item where a key belongs, is not this reader's business
      if (lineIndent > indent || this.isSeqItem(this.pos)) giveUp();
      const start = this.starts[this.pos]!;
      const end = this.ends[this.pos]!;
      const colon = plainKeyEnd(this.text, start, end);
      // YAML refuses an implicit block key whose `:` is over 1,024 characters from its start
      if (colon < 0 || colon - start > 1000) giveUp();
      const key = this.keyAt(start, colon, out);
      this.pos++;
      out[key] = this.valueAfterKey(colon + 1, end, indent, depth);
    }
    return out;
  }

  /**
   * What follows `key:` (the text from `from` to `end`): a value on the line, a nested block, a
   * sequence at the key's column, or null.
   */
  private valueAfterKey(from: number, end: number, indent: number, depth: number): unknown {
    if (!isBlank(this.text, from, end)) {
      const value = this.valueOnLine(from, end, depth + 1);
      this.nothingDeeper(indent);
      return value;
    }
    if (this.pos >= this.count) return null;
    const nextIndent = this.indents[this.pos]!;
    if (nextIndent > indent) return this.block(nextIndent, indent, depth + 1);
    if (nextIndent === indent && this.isSeqItem(this.pos)) return this.sequence(indent, depth + 1);
    return null;
  }

  /**
   * inlineValue of the text from `from` to `end`; a plain scalar (most values) is read in place, with
   * one copy: its own text.
   */
  private valueOnLine(from: number, end: number, depth: number): unknown {
    const text = this.text;
    let at = from;
    while (at < end && text.charCodeAt(at) === SPACE) at++;
    const c = text.charCodeAt(at);
    if (c === 0x22 || c === 0x27 || c === 0x7b || c === 0x5b) {
      return inlineValue(text.slice(from, end), depth, this.maxDepth);
    }
    // a plain scalar runs to a comment (` #`) or the end of the line, trailing spaces off
    let stop = end;
    for (let i = at; i + 1 < end; i++) {
      if (text.charCodeAt(i) === SPACE && text.charCodeAt(i + 1) === HASH) {
        stop = i;
        break;
      }
    }
    while (stop > at && text.charCodeAt(stop - 1) === SPACE) stop--;
    return plain(text.slice(at, stop), false);
  }

  private sequence(indent: number, depth: number): unknown[] {
    if (depth >= this.maxDepth) giveUp();
    const out: unknown[] = [];
    const text = this.text;
    while (this.pos < this.count) {
      const lineIndent = this.indents[this.pos]!;
      if (lineIndent < indent || (lineIndent === indent && !this.isSeqItem(this.pos))) break;
      if (lineIndent > indent) giveUp();
      const start = this.starts[this.pos]!;
      const end = this.ends[this.pos]!;
      if (isBlank(text, start + 1, end)) {
        this.pos++;
        const nextIndent = this.pos < this.count ? this.indents[this.pos]! : -1;
        out.push(nextIndent > indent ? this.block(nextIndent, indent, depth + 1) : null);
        continue;
      }
      let at = start + 2;
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      if (text.charCodeAt(at) === DASH && (at + 1 === end || text.charCodeAt(at + 1) === SPACE)) giveUp();
      if (plainKeyEnd(text, at, end) >= 0) {
        // `- key: value` opens a mapping whose keys sit at the column of this first one
        this.indents[this.pos] = indent + (at - start);
        this.starts[this.pos] = at;
        out.push(this.mapping(indent + (at - start), depth + 1));
      } else {
        this.pos++;
        out.push(this.valueOnLine(at, end, depth + 1));
        this.nothingDeeper(indent);
      }
    }
    return out;
  }

  /** A value written on its line ends there: a deeper next line would continue it. */
  private nothingDeeper(indent: number): void {
    if (this.pos < this.count && this.indents[this.pos]! > indent) giveUp();
  }
}

/**
 * Nothing but spaces and perhaps a comment (a `#` after a space) from `from` to `end`: the
 * regular expression `^(?: *| +#.*)$`, whose `.` takes no line separator (U+2028, U+2029).
 */
function isBlank(text: string, from: number, end: number): boolean {
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
function inlineValue(text: string, depth: number, maxDepth: number): unknown {
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
function plain(text: string, inFlow: boolean): unknown {
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
