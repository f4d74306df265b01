/**
 * The shape most desired-state files have (block mappings and sequences, one-line scalars, one-line
 * flow collections such as `{ name: www, type: A }`, comments) read without the YAML library, whose
 * full tree is most of the time and the garbage of loading a big file: a 10,000-record file loads
 * several times faster. Locations still come from a YAML parse, made only when one is asked for.
 *
 * Anchors and aliases are read too (Anchors), so a file that writes repeated values once reads as
 * fast as the same file written out.
 *
 * The fast path is taken only when it gives exactly what the YAML path gives. At the first thing
 * outside that shape (tags, block or multi-line scalars, quoted keys, duplicate or merge keys, an
 * anchored value holding an alias, tabs, CR line ends, a second document, nesting past the
 * limit...) it gives up, and the YAML path reads the file and reports any problem with its
 * position. A test holds the two to each other on generated files.
 */
import { FlowReader } from './yaml-fast-flow.js';
import {
  AMPERSAND,
  ASTERISK,
  Anchors,
  DASH,
  GiveUp,
  HASH,
  KeyTable,
  SPACE,
  anchorNameEnd,
  giveUp,
  isBlank,
  plainKeyEnd,
  plainToLineEnd,
  startsPlain,
} from './yaml-fast-values.js';

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

/**
 * Reads the text in one pass, a line at a time: the line being read is held as offsets into the
 * text (its indentation, where its content starts, where it ends), and no copy or list of the
 * lines is made (a file of 10,000 records has some 60,000). With keys and scalars read in place
 * too, a cold read of that file allocates 2.2 MB where three lists of line offsets and a copy of
 * each scalar made 6.3 MB, and takes 39 against 55 ms of the main thread (medians of 15 runs).
 */
class BlockReader {
  /** the indentation of the line being read; -1 past the last line */
  private indent = -1;
  /** where the content of the line being read starts (its first character that is not a space) */
  private start = 0;
  /** where the line being read ends (its line feed, or the end of the text) */
  private end = 0;
  private readonly keys = new KeyTable();
  private readonly anchors = new Anchors();
  private readonly flow: FlowReader;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {
    this.flow = new FlowReader(text, maxDepth, this.anchors, this.keys);
    this.lineFrom(0);
  }

  /** Makes the first line at or after `from` that holds something (not blank, not only a comment) the line being read. */
  private lineFrom(from: number): void {
    const text = this.text;
    const n = text.length;
    for (let lineStart = from; lineStart <= n;) {
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
        this.indent = first - lineStart;
        this.start = first;
        this.end = end;
        return;
      }
      lineStart = end + 1;
    }
    this.indent = -1;
    this.start = this.end = n;
  }

  /** Done with the line being read: on to the next that holds something. */
  private nextLine(): void {
    this.lineFrom(this.end + 1);
  }

  document(): unknown {
    if (this.indent !== 0 || this.isSeqItem()) giveUp();
    const value = this.mapping(0, 1);
    if (this.indent !== -1) giveUp();
    return value;
  }

  /** The line being read is a sequence item: `-` alone or followed by a space. */
  private isSeqItem(): boolean {
    const start = this.start;
    if (this.text.charCodeAt(start) !== DASH) return false;
    return start + 1 === this.end || this.text.charCodeAt(start + 1) === SPACE;
  }

  /** The value of a key, on the lines below it (at `indent`, deeper than the key's `keyIndent`). */
  private block(indent: number, keyIndent: number, depth: number): unknown {
    if (this.isSeqItem()) return this.sequence(indent, depth);
    const c = this.text.charCodeAt(this.start);
    if (c === 0x7b || c === 0x5b) {
      // a flow collection on a line of its own, closed on that line
      const { start, end } = this;
      this.nextLine();
      const value = this.flow.lineValue(start, end, depth);
      this.nothingDeeper(keyIndent);
      return value;
    }
    return this.mapping(indent, depth);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    // (>=: a collection at the limit may hold values past it, which the YAML path reports)
    if (depth >= this.maxDepth) giveUp();
    const out: Record<string, unknown> = {};
    while (this.indent >= indent) {
      // a deeper line, or a sequence item where a key belongs (no plain key), is not this reader's business
      if (this.indent > indent) giveUp();
      const { start, end } = this;
      const colon = plainKeyEnd(this.text, start, end);
      // YAML refuses an implicit block key whose `:` is over 1,024 characters from its start
      if (colon < 0 || colon - start > 1000) giveUp();
      const key = this.keys.at(this.text, start, colon, out);
      this.nextLine();
      out[key] = this.valueAfterKey(colon + 1, end, indent, depth);
    }
    return out;
  }

  /**
   * What follows `key:` (the text from `from` to `end`, the line already left): a value on the
   * line, a nested block, a sequence at the key's column, or null.
   */
  private valueAfterKey(from: number, end: number, indent: number, depth: number): unknown {
    const text = this.text;
    let at = from;
    while (at < end && text.charCodeAt(at) === SPACE) at++;
    if (at < end) {
      // most values: a plain scalar to the end of the line, read without the detour through
      // valueOnLine (36 against 41 ms of the main thread for a cold read of 10,000 records)
      if (startsPlain(text, at)) {
        const value = plainToLineEnd(text, at, end);
        this.nothingDeeper(indent);
        return value;
      }
      const c = text.charCodeAt(at);
      const anchor = c === AMPERSAND ? this.anchorAlone(at, end) : undefined;
      if (anchor !== undefined) return this.anchoredBlock(anchor, indent, depth, true);
      if (c !== HASH || !isBlank(text, from, end)) {
        const value = this.valueOnLine(at, end, depth + 1);
        this.nothingDeeper(indent);
        return value;
      }
    }
    const nextIndent = this.indent;
    if (nextIndent > indent) return this.block(nextIndent, indent, depth + 1);
    if (nextIndent === indent && this.isSeqItem()) return this.sequence(indent, depth + 1);
    return null;
  }

  /**
   * The name of the anchor at `at` when it is all there is up to `end` (`key: &name`, its value
   * on the lines below), or undefined.
   */
  private anchorAlone(at: number, end: number): string | undefined {
    const nameEnd = anchorNameEnd(this.text, at);
    return nameEnd <= end && isBlank(this.text, nameEnd, end) ? this.text.slice(at + 1, nameEnd) : undefined;
  }

  /**
   * The anchored value on the lines below `key: &name` (`- &name`): a nested block, or (after a
   * key) a sequence at the key's column. An anchored null goes the YAML way.
   */
  private anchoredBlock(name: string, indent: number, depth: number, afterKey: boolean): unknown {
    const before = this.anchors.aliases;
    const next = this.indent;
    let value: unknown;
    if (next > indent) value = this.block(next, indent, depth + 1);
    else if (afterKey && next === indent && this.isSeqItem()) value = this.sequence(indent, depth + 1);
    else giveUp();
    this.anchors.define(name, value, before);
    return value;
  }

  /**
   * The value written from `at` (not a space) to the end of its line at `end`: a plain scalar
   * (most values, read in place), a quoted scalar or a flow collection. An alias is its anchor's
   * value; an anchor names the value after it.
   */
  private valueOnLine(at: number, end: number, depth: number): unknown {
    const text = this.text;
    const c = text.charCodeAt(at);
    if (c === ASTERISK || c === AMPERSAND) {
      const nameEnd = anchorNameEnd(text, at);
      if (nameEnd > end) giveUp();
      const name = text.slice(at + 1, nameEnd);
      if (c === ASTERISK) return isBlank(text, nameEnd, end) ? this.anchors.alias(name) : giveUp();
      // `&name value`: a space, then a value that is neither an anchor nor an alias
      let valueAt = nameEnd;
      while (valueAt < end && text.charCodeAt(valueAt) === SPACE) valueAt++;
      const v = text.charCodeAt(valueAt);
      if (valueAt === nameEnd || isBlank(text, nameEnd, end) || v === ASTERISK || v === AMPERSAND) giveUp();
      const before = this.anchors.aliases;
      const value = this.valueOnLine(valueAt, end, depth);
      this.anchors.define(name, value, before);
      return value;
    }
    if (c === 0x22 || c === 0x27 || c === 0x7b || c === 0x5b) return this.flow.lineValue(at, end, depth);
    return startsPlain(text, at) ? plainToLineEnd(text, at, end) : giveUp();
  }

  private sequence(indent: number, depth: number): unknown[] {
    if (depth >= this.maxDepth) giveUp();
    const out: unknown[] = [];
    const text = this.text;
    while (this.indent >= indent) {
      if (this.indent === indent && !this.isSeqItem()) break;
      if (this.indent > indent) giveUp();
      const { start, end } = this;
      let at = start + 1;
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      const anchor = text.charCodeAt(at) === AMPERSAND && at < end ? this.anchorAlone(at, end) : undefined;
      if (anchor !== undefined) {
        this.nextLine();
        out.push(this.anchoredBlock(anchor, indent, depth, false));
        continue;
      }
      if (isBlank(text, start + 1, end)) {
        this.nextLine();
        out.push(this.indent > indent ? this.block(this.indent, indent, depth + 1) : null);
        continue;
      }
      if (text.charCodeAt(at) === DASH && (at + 1 === end || text.charCodeAt(at + 1) === SPACE)) giveUp();
      if (plainKeyEnd(text, at, end) >= 0) {
        // `- key: value` opens a mapping whose keys sit at the column of this first one
        this.indent = indent + (at - start);
        this.start = at;
        out.push(this.mapping(this.indent, depth + 1));
      } else {
        this.nextLine();
        out.push(this.valueOnLine(at, end, depth + 1));
        this.nothingDeeper(indent);
      }
    }
    return out;
  }

  /** A value written on its line ends there: a deeper next line would continue it. */
  private nothingDeeper(indent: number): void {
    if (this.indent > indent) giveUp();
  }
}
