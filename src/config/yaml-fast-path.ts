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
import {
  AMPERSAND,
  ASTERISK,
  Anchors,
  DASH,
  GiveUp,
  HASH,
  SPACE,
  anchorNameEnd,
  giveUp,
  inlineValue,
  isBlank,
  plain,
  plainKey,
  plainKeyEnd,
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
  private readonly anchors = new Anchors();
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
      const value = inlineValue(this.text.slice(start, end), depth, this.maxDepth, this.anchors);
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
    const anchor = this.anchorAlone(from, end);
    if (anchor !== undefined) return this.anchoredBlock(anchor, indent, depth, true);
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
   * The name of an anchor that is all there is from `from` to `end` (`key: &name`, its value on
   * the lines below), or undefined.
   */
  private anchorAlone(from: number, end: number): string | undefined {
    let at = from;
    while (at < end && this.text.charCodeAt(at) === SPACE) at++;
    if (this.text.charCodeAt(at) !== AMPERSAND) return undefined;
    const nameEnd = anchorNameEnd(this.text, at);
    return nameEnd <= end && isBlank(this.text, nameEnd, end) ? this.text.slice(at + 1, nameEnd) : undefined;
  }

  /**
   * The anchored value on the lines below `key: &name` (`- &name`): a nested block, or (after a
   * key) a sequence at the key's column. An anchored null goes the YAML way.
   */
  private anchoredBlock(name: string, indent: number, depth: number, afterKey: boolean): unknown {
    const before = this.anchors.aliases;
    const next = this.pos < this.count ? this.indents[this.pos]! : -1;
    let value: unknown;
    if (next > indent) value = this.block(next, indent, depth + 1);
    else if (afterKey && next === indent && this.isSeqItem(this.pos))
      value = this.sequence(indent, depth + 1);
    else giveUp();
    this.anchors.define(name, value, before);
    return value;
  }

  /**
   * inlineValue of the text from `from` to `end`; a plain scalar (most values) is read in place, with
   * one copy: its own text. An alias is its anchor's value; an anchor names the value after it.
   */
  private valueOnLine(from: number, end: number, depth: number): unknown {
    const text = this.text;
    let at = from;
    while (at < end && text.charCodeAt(at) === SPACE) at++;
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
    if (c === 0x22 || c === 0x27 || c === 0x7b || c === 0x5b) {
      return inlineValue(text.slice(from, end), depth, this.maxDepth, this.anchors);
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
      const anchor = this.anchorAlone(start + 1, end);
      if (anchor !== undefined) {
        this.pos++;
        out.push(this.anchoredBlock(anchor, indent, depth, false));
        continue;
      }
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
