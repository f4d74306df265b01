/**
 * The values of the block-YAML fast path (./yaml-fast-path.ts) that open with a quote or a bracket:
 * single- and double-quoted scalars and flow collections (`{ name: www, type: A }`, `[a, b]`),
 * each closed on its line, read in place in the file's text. What `zoneplan export` writes, a
 * record a line, is read here. Each gives the value the YAML path would, or throws GiveUp.
 */
import {
  ASTERISK,
  type Anchors,
  COLON,
  HASH,
  type KeyTable,
  SPACE,
  anchorNameEnd,
  giveUp,
  isBlank,
  flowPlainAt,
  plainKeyEnd,
} from './yaml-fast-values.js';

const COMMA = 0x2c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;

/** Reads quoted scalars and flow collections of one file's lines; `at` is where it is in the text. */
export class FlowReader {
  private at = 0;
  /** where the line being read ends */
  private end = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly anchors: Anchors,
    private readonly keys: KeyTable,
  ) {}

  /**
   * The quoted scalar or flow collection at `from` (a quote or a bracket), which only spaces and
   * a comment may follow before the line's end at `end`.
   */
  lineValue(from: number, end: number, depth: number): unknown {
    this.at = from;
    this.end = end;
    const c = this.text.charCodeAt(from);
    const value = c === DOUBLE_QUOTE || c === SINGLE_QUOTE ? this.quoted() : this.flow(depth);
    if (!isBlank(this.text, this.at, end)) giveUp();
    return value;
  }

  /** The character at `at`, or -1 at the end of the line. */
  private next(): number {
    return this.at < this.end ? this.text.charCodeAt(this.at) : -1;
  }

  private skipSpaces(): void {
    while (this.at < this.end && this.text.charCodeAt(this.at) === SPACE) this.at++;
  }

  /** A single- or double-quoted scalar on one line. */
  private quoted(): string {
    const text = this.text;
    const start = this.at + 1;
    if (text.charCodeAt(this.at) === SINGLE_QUOTE) {
      for (let i = start; ;) {
        const j = text.indexOf("'", i);
        if (j < 0 || j >= this.end) giveUp();
        if (j + 1 < this.end && text.charCodeAt(j + 1) === SINGLE_QUOTE) {
          i = j + 2;
          continue;
        }
        this.at = j + 1;
        return text.slice(start, j).replaceAll("''", "'");
      }
    }
    let i = start;
    while (i < this.end && text.charCodeAt(i) !== DOUBLE_QUOTE) {
      if (text.charCodeAt(i) === 0x5c) {
        // the escapes JSON and YAML read alike; YAML's others (\x, \U, \N, \e, ...) go the YAML way
        if (i + 1 >= this.end || !JSON_ESCAPES.includes(text[i + 1]!)) giveUp();
        i += 2;
      } else i++;
    }
    if (i >= this.end) giveUp();
    this.at = i + 1;
    try {
      return JSON.parse(text.slice(start - 1, i + 1)) as string;
    } catch {
      return giveUp();
    }
  }

  /** A flow mapping or sequence that closes on the same line. */
  private flow(depth: number): unknown {
    if (depth >= this.maxDepth) giveUp();
    const isMap = this.text.charCodeAt(this.at) === OPEN_CURLY;
    const close = isMap ? CLOSE_CURLY : CLOSE_SQUARE;
    this.at++;
    const map: Record<string, unknown> | undefined = isMap ? {} : undefined;
    const list: unknown[] | undefined = isMap ? undefined : [];
    this.skipSpaces();
    if (this.next() === close) {
      this.at++;
      return map ?? list;
    }
    for (;;) {
      this.skipSpaces();
      if (map) {
        const colon = plainKeyEnd(this.text, this.at, this.end);
        if (colon < 0) giveUp();
        const key = this.keys.at(this.text, this.at, colon, map);
        this.at = colon + 1;
        map[key] = this.flowValue(depth);
      } else list!.push(this.flowValue(depth));
      this.skipSpaces();
      const next = this.next();
      this.at++;
      if (next === close) return map ?? list;
      if (next !== COMMA) giveUp();
      this.skipSpaces();
      // a trailing comma, or a comma with nothing before it
      const after = this.next();
      if (after === close || after === COMMA) giveUp();
    }
  }

  private flowValue(depth: number): unknown {
    this.skipSpaces();
    const c = this.next();
    if (c === ASTERISK || c === 0x26) return this.anchored(depth);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) return this.quoted();
    if (c === OPEN_CURLY || c === OPEN_SQUARE) return this.flow(depth + 1);
    // a plain scalar runs to a `,` or the end of its collection; a bracket inside, a comment, a
    // `: ` inside or a `:` last is more than a one-line flow scalar
    const text = this.text;
    const from = this.at;
    let i = from;
    for (; i < this.end; i++) {
      const d = text.charCodeAt(i);
      if (d === COMMA || d === CLOSE_SQUARE || d === CLOSE_CURLY) break;
      if (d === OPEN_SQUARE || d === OPEN_CURLY) giveUp();
      if (d === SPACE) {
        if (text.charCodeAt(i + 1) === HASH) giveUp();
      } else if (d === COLON && text.charCodeAt(i + 1) === SPACE) giveUp();
    }
    this.at = i;
    while (i > from && text.charCodeAt(i - 1) === SPACE) i--;
    if (i > from && text.charCodeAt(i - 1) === COLON) giveUp();
    return flowPlainAt(text, from, i);
  }

  /**
   * An alias (`*name`, then a space, a `,` or the end of its collection) or an anchored value
   * (`&name value`) in a flow collection.
   */
  private anchored(depth: number): unknown {
    const text = this.text;
    const sigil = text.charCodeAt(this.at);
    const nameEnd = anchorNameEnd(text, this.at);
    if (nameEnd >= this.end) giveUp();
    const name = text.slice(this.at + 1, nameEnd);
    const next = text.charCodeAt(nameEnd);
    this.at = nameEnd;
    if (sigil === ASTERISK) {
      if (next !== SPACE && next !== COMMA && next !== CLOSE_SQUARE && next !== CLOSE_CURLY) giveUp();
      return this.anchors.alias(name);
    }
    if (next !== SPACE) giveUp();
    this.skipSpaces();
    // an anchor of nothing, of an alias or twice anchored: the YAML path's business
    const c = this.next();
    if (c === -1 || c === COMMA || c === CLOSE_SQUARE || c === CLOSE_CURLY || c === 0x26 || c === ASTERISK)
      giveUp();
    const before = this.anchors.aliases;
    const value = this.flowValue(depth);
    this.anchors.define(name, value, before);
    return value;
  }
}

/** the characters after a `\` that JSON and YAML read alike */
const JSON_ESCAPES = '"\\/bfnrtu';
