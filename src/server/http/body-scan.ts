/**
 * One pass over a request body's text, before JSON.parse, for what the parser itself lets through:
 *
 * - nesting past MAX_NESTING_DEPTH (the limit desired-state files have). JSON.parse reads any depth,
 *   but everything after it that recurses (JSON.stringify into the store, SQLite's JSON functions,
 *   the rules) fails thousands of levels down; refusing here, on the text, also spares parsing a
 *   10 MB body of brackets. Every value counts: the body is level 1, a value in it level 2.
 * - a lone UTF-16 surrogate written as an escape (`"\ud800"`). JSON.parse accepts it, but the string
 *   is not Unicode: SQLite stores it as U+FFFD in a text column while JSON.stringify keeps the escape
 *   in a JSON column, so one value would read back two ways. Parsers of other languages refuse it.
 *
 * Each finding carries the JSON pointer of the value, so the answer says where.
 */
import { MAX_NESTING_DEPTH } from '../../rules/shared/nesting.js';

export interface BodyFinding {
  kind: 'too-deep' | 'lone-surrogate';
  /** JSON pointer (RFC 6901) of the value; for a key, of the member it names */
  pointer: string;
}

interface Frame {
  array: boolean;
  /** the index of the current item (arrays) */
  index: number;
  /** the current member's key as written, quotes included (objects); decoded only for a pointer */
  keyStart: number;
  keyEnd: number;
  /** objects: true until the member's `:` is read, so the next string is a key */
  expectingKey: boolean;
}

const QUOTE = 0x22;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function keyText(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1); // malformed: JSON.parse will say so; the pointer only has to be readable
  }
}

function pointerOf(text: string, stack: Frame[]): string {
  let out = '';
  for (const f of stack) {
    const step = f.array ? String(f.index) : keyText(text.slice(f.keyStart, f.keyEnd + 1));
    out += '/' + step.replace(/~/g, '~0').replace(/\//g, '~1');
  }
  return out;
}

function hex4(text: string, at: number): number {
  const digits = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
}

/**
 * Reads strings by jumping between quotes and backslashes with indexOf (most of a body's bytes are
 * inside strings); `nextBackslash` is kept across strings so the text is searched once for them.
 */
class StringReader {
  /** set by read(): the string held a lone surrogate escape */
  loneSurrogate = false;
  private nextBackslash = -1;
  constructor(private readonly text: string) {}

  private backslashFrom(i: number): number {
    if (this.nextBackslash !== Infinity && this.nextBackslash < i) {
      const at = this.text.indexOf('\\', i);
      this.nextBackslash = at < 0 ? Infinity : at;
    }
    return this.nextBackslash;
  }

  /** The closing quote of the string opening at `start` (or the text's length). */
  read(start: number): number {
    const text = this.text;
    let lone = false;
    let i = start + 1;
    for (;;) {
      const quote = text.indexOf('"', i);
      if (quote < 0 || this.backslashFrom(i) > quote) {
        this.loneSurrogate = lone;
        return quote < 0 ? text.length : quote;
      }
      const backslash = this.backslashFrom(i);
      // an escape before the next quote: `\"` does not end the string, `\uXXXX` may be a surrogate
      if (text[backslash + 1] !== 'u') {
        i = backslash + 2;
        continue;
      }
      const unit = hex4(text, backslash + 2);
      i = backslash + 6;
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const next = text.startsWith('\\u', i) ? hex4(text, i + 2) : -1;
        if (next >= 0xdc00 && next <= 0xdfff) i += 6;
        else lone = true;
      } else if (unit >= 0xdc00 && unit <= 0xdfff) lone = true;
    }
  }
}

/** The first problem in reading order, or undefined. Malformed text is left to JSON.parse. */
export function scanBody(text: string, limit = MAX_NESTING_DEPTH): BodyFinding | undefined {
  const strings = new StringReader(text);
  const stack: Frame[] = [];
  let inValue = false; // inside a number or literal, already checked at its first character
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === QUOTE) {
      inValue = false;
      const end = strings.read(i);
      if (top !== undefined && !top.array && top.expectingKey) {
        top.keyStart = i;
        top.keyEnd = end;
      } else if (stack.length + 1 > limit) return { kind: 'too-deep', pointer: pointerOf(text, stack) };
      if (strings.loneSurrogate) return { kind: 'lone-surrogate', pointer: pointerOf(text, stack) };
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      // `{` or `[`: a container one level below the current one
      inValue = false;
      if (stack.length + 1 > limit) return { kind: 'too-deep', pointer: pointerOf(text, stack) };
      stack.push({ array: c === 0x5b, index: 0, keyStart: 0, keyEnd: 0, expectingKey: c === 0x7b });
    } else if (c === 0x7d || c === 0x5d) {
      inValue = false;
      stack.pop();
    } else if (c === 0x2c) {
      inValue = false;
      if (top?.array) top.index++;
      else if (top) top.expectingKey = true;
    } else if (c === 0x3a) {
      inValue = false;
      if (top && !top.array) top.expectingKey = false;
    } else if (isWhitespace(c)) {
      inValue = false;
    } else if (!inValue) {
      // the first character of a number or literal
      inValue = true;
      if (stack.length + 1 > limit) return { kind: 'too-deep', pointer: pointerOf(text, stack) };
    }
  }
  return undefined;
}
