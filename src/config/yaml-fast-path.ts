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
  if (/[\t\r]/.test(text)) return undefined;
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

interface Line {
  indent: number;
  /** the line from its first non-space character */
  text: string;
}

/** A plain key: letters, digits and `_ . / -` (one that reads as a number is refused below). */
const PLAIN_KEY = /^([A-Za-z0-9_][A-Za-z0-9_./-]*):(?= |$)/;
/** Plain keys the YAML path reads as null or a boolean (a null key becomes '' there). */
const NOT_STRING_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** A key this reader can take as it is written. */
function plainKey(key: string, seen: Record<string, unknown>): string {
  if (NOT_STRING_KEYS.has(key) || key === '__proto__' || Object.prototype.hasOwnProperty.call(seen, key)) {
    giveUp();
  }
  // a key such as `300` or `1.5` is a number to the YAML path
  if (/^[0-9]/.test(key) && plain(key, false) !== key) giveUp();
  return key;
}

class BlockReader {
  private readonly lines: Line[] = [];
  private pos = 0;

  constructor(
    text: string,
    private readonly maxDepth: number,
  ) {
    for (const raw of text.split('\n')) {
      let indent = 0;
      while (raw.charCodeAt(indent) === 0x20) indent++;
      const rest = raw.slice(indent);
      if (rest === '' || rest.startsWith('#')) continue;
      // document markers and directives
      if (indent === 0 && (rest.startsWith('---') || rest.startsWith('...') || rest.startsWith('%'))) {
        giveUp();
      }
      this.lines.push({ indent, text: rest });
    }
  }

  document(): unknown {
    const first = this.lines[0];
    if (!first || first.indent !== 0 || isSeqItem(first.text)) giveUp();
    const value = this.mapping(0, 1);
    if (this.pos !== this.lines.length) giveUp();
    return value;
  }

  /** The value of a key, on the lines below it (at `indent`, deeper than the key's `keyIndent`). */
  private block(indent: number, keyIndent: number, depth: number): unknown {
    const text = this.lines[this.pos]!.text;
    if (isSeqItem(text)) return this.sequence(indent, depth);
    if (text.startsWith('{') || text.startsWith('[')) {
      // a flow collection on a line of its own, closed on that line
      this.pos++;
      const value = inlineValue(text, depth, this.maxDepth);
      this.nothingDeeper(keyIndent);
      return value;
    }
    return this.mapping(indent, depth);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    // (>=: a collection at the limit may hold values past it, which the YAML path reports)
    if (depth >= this.maxDepth) giveUp();
    const out: Record<string, unknown> = {};
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos]!;
      if (line.indent < indent) break;
      // a deeper line, or a sequence item where a key belongs, is not this reader's business
      if (line.indent > indent || isSeqItem(line.text)) giveUp();
      const m = PLAIN_KEY.exec(line.text) ?? giveUp();
      // YAML refuses an implicit block key whose `:` is over 1,024 characters from its start
      if (m[1]!.length > 1000) giveUp();
      const key = plainKey(m[1]!, out);
      this.pos++;
      out[key] = this.valueAfterKey(line.text.slice(m[0].length), indent, depth);
    }
    return out;
  }

  /** What follows `key:`: a value on the line, a nested block, a sequence at the key's column, or null. */
  private valueAfterKey(rest: string, indent: number, depth: number): unknown {
    if (!isBlank(rest)) {
      const value = inlineValue(rest, depth + 1, this.maxDepth);
      this.nothingDeeper(indent);
      return value;
    }
    const next = this.lines[this.pos];
    if (next && next.indent > indent) return this.block(next.indent, indent, depth + 1);
    if (next && next.indent === indent && isSeqItem(next.text)) return this.sequence(indent, depth + 1);
    return null;
  }

  private sequence(indent: number, depth: number): unknown[] {
    if (depth >= this.maxDepth) giveUp();
    const out: unknown[] = [];
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos]!;
      if (line.indent < indent || (line.indent === indent && !isSeqItem(line.text))) break;
      if (line.indent > indent) giveUp();
      if (line.text === '-' || isBlank(line.text.slice(1))) {
        this.pos++;
        const next = this.lines[this.pos];
        out.push(next && next.indent > indent ? this.block(next.indent, indent, depth + 1) : null);
        continue;
      }
      let at = 2;
      while (line.text.charCodeAt(at) === 0x20) at++;
      const content = line.text.slice(at);
      if (isSeqItem(content)) giveUp();
      if (PLAIN_KEY.test(content)) {
        // `- key: value` opens a mapping whose keys sit at the column of this first one
        this.lines[this.pos] = { indent: indent + at, text: content };
        out.push(this.mapping(indent + at, depth + 1));
      } else {
        this.pos++;
        out.push(inlineValue(content, depth + 1, this.maxDepth));
        this.nothingDeeper(indent);
      }
    }
    return out;
  }

  /** A value written on its line ends there: a deeper next line would continue it. */
  private nothingDeeper(indent: number): void {
    const next = this.lines[this.pos];
    if (next && next.indent > indent) giveUp();
  }
}

/** Trailing spaces off. Not trimEnd(): YAML keeps the other white space (NBSP, U+3000, form feed...). */
const trimSpaces = (text: string) =>
  text.charCodeAt(text.length - 1) === 0x20 ? text.replace(/ +$/, '') : text;
const isSeqItem = (text: string) => text === '-' || text.startsWith('- ');
/** Nothing but spaces and perhaps a comment (a `#` after a space). */
const isBlank = (text: string) => /^(?: *| +#.*)$/.test(text);

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
  if (!isBlank(text.slice(cursor.at))) giveUp();
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
      const m = PLAIN_KEY.exec(c.text.slice(c.at)) ?? giveUp();
      const key = plainKey(m[1]!, map);
      c.at += m[0].length;
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
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(text) && !/^-[0-9]/.test(text)) giveUp();
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
  const first = text.charCodeAt(0);
  const mayBeNumber = (first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d || first === 0x2e;
  if (!mayBeNumber) return text;
  if (/^[-+]?[0-9]+$/.test(text)) {
    // decimal integers without a sign or leading zero (other forms go the YAML way)
    if (!/^(?:0|-?[1-9][0-9]*)$/.test(text)) giveUp();
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : giveUp();
  }
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
