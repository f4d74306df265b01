/**
 * The one-line pieces of the block-YAML fast path (./yaml-fast-path.ts): plain keys, plain scalars
 * (typed by ./yaml-scalars.ts), anchors and aliases. Quoted scalars and one-line flow collections
 * are in ./yaml-fast-flow.ts. Each gives the value the YAML path would, or throws GiveUp for
 * anything else, which sends the file the YAML way. All of them read the file's text in place, by
 * offsets: nothing is copied out of it but the keys and strings the data holds.
 */
import { plainScalarAt, readsAsString } from './yaml-scalars.js';

export class GiveUp {}
export const giveUp = (): never => {
  throw new GiveUp();
};

export const SPACE = 0x20;
export const HASH = 0x23;
export const DASH = 0x2d;
export const COLON = 0x3a;
export const AMPERSAND = 0x26;
export const ASTERISK = 0x2a;

/** yaml's bound on alias expansion (uses of an anchor times the aliases inside it); 100 is its default. */
export const MAX_ALIAS_COUNT = 100;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The anchors of one file (`&name value`) and their aliases (`*name`), as the YAML path reads
 * them: an alias is the value of the last anchor of its name before it (the very object, for a
 * collection), and the `yaml` package refuses a file whose anchor and its aliases count more than
 * MAX_ALIAS_COUNT ("billion laughs": it counts the anchor itself, so 99 aliases at most). Each
 * alias costs one look-up, so a file with anchors reads in the time of the same file written out.
 * An anchored value that holds an alias (whose expansion the `yaml` package counts otherwise), an
 * alias of no anchor before it, and an alias past the bound go the YAML way, which reads or
 * reports them.
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
    if (c >= 128 || KEY_CHARS[c] === 0 || c === 0x2f) break;
  }
  return i === at + 1 ? giveUp() : i;
}

/** What a character (by code, ASCII) may be in a plain key: first letters, digits and `_`; after them also `. / -`. */
const KEY_START = 1;
const KEY_REST = 2;
const KEY_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  KEY_CHARS[c] = /[A-Za-z0-9_]/.test(ch) ? KEY_START : /[./-]/.test(ch) ? KEY_REST : 0;
}

/**
 * Where the `:` of a plain key at `start` is (the key being letters, digits and `_ . / -`, not
 * starting with `. / -`, and the `:` followed by a space or the end at `end`), or -1.
 */
export function plainKeyEnd(text: string, start: number, end: number): number {
  if (start >= end) return -1;
  const first = text.charCodeAt(start);
  if (first >= 128 || KEY_CHARS[first] !== KEY_START) return -1;
  let i = start + 1;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || KEY_CHARS[c] === 0) break;
  }
  if (i >= end || text.charCodeAt(i) !== COLON) return -1;
  return i + 1 === end || text.charCodeAt(i + 1) === SPACE ? i : -1;
}

/** A key this reader can take as it is written. */
export function plainKey(key: string, seen: Record<string, unknown>): string {
  if (key === '__proto__' || hasOwn.call(seen, key)) giveUp();
  // a key such as `300`, `1.5` or `true` is another value to the YAML path (a null key becomes '')
  if (!readsAsString(key)) giveUp();
  return key;
}

/** slots of KeyTable: a power of two well above the keys a desired-state file uses */
const KEY_SLOTS = 256;

/**
 * The plain keys met so far, by a hash of their spelling: a key met before (a file of 10,000
 * records has `name`, `type`, `content`... on 50,000 lines) is given again without a copy and
 * without plainKey's checks of its spelling, with only the check that its mapping does not hold it
 * yet (a cold read of 10,000 records takes 31 ms of the main thread with it, 38 without). A slot
 * holds the last key hashed to it, so the table stays small whatever the file.
 */
export class KeyTable {
  private readonly slots: string[] = new Array<string>(KEY_SLOTS).fill('');

  /** The key from `start` to its `:` at `colon`, for the mapping `seen`. */
  at(text: string, start: number, colon: number, seen: Record<string, unknown>): string {
    let hash = 0;
    for (let i = start; i < colon; i++) hash = (hash * 31 + text.charCodeAt(i)) & 0xfffff;
    const slot = (hash ^ (hash >> 8)) & (KEY_SLOTS - 1);
    const known = this.slots[slot]!;
    if (known.length === colon - start && text.startsWith(known, start)) {
      if (hasOwn.call(seen, known)) giveUp();
      return known;
    }
    return (this.slots[slot] = plainKey(text.slice(start, colon), seen));
  }
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

/**
 * The plain scalar that starts at `at` (a character that may start one: see startsPlain) and runs
 * to a comment (` #`) or the end of its line at `end`, trailing spaces off (only spaces: YAML keeps
 * NBSP, U+3000, form feed...). One scan finds its end and what makes it more than text: a `: `
 * inside or a `:` last is YAML structure, which goes the YAML way.
 */
export function plainToLineEnd(text: string, at: number, end: number): unknown {
  let stop = end;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE) {
      if (text.charCodeAt(i + 1) === HASH) {
        stop = i;
        break;
      }
    } else if (c === COLON && text.charCodeAt(i + 1) === SPACE) giveUp();
  }
  while (stop > at && text.charCodeAt(stop - 1) === SPACE) stop--;
  if (stop > at && text.charCodeAt(stop - 1) === COLON) giveUp();
  return plainScalarAt(text, at, stop);
}

/**
 * The value of the plain scalar from `from` to `to` in a flow collection (its end found, its `:`
 * checked): nothing there, or an indicator first, goes the YAML way.
 */
export function flowPlainAt(text: string, from: number, to: number): unknown {
  if (from === to || !startsPlain(text, from)) giveUp();
  return plainScalarAt(text, from, to);
}

/**
 * Whether the character at `at` may start a plain scalar: any but the indicators that give it
 * another meaning or may not start one (-?:,[]{}#&*!|>'"%@`), and a `-` before a digit (-5).
 */
export function startsPlain(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c >= 128 || INDICATORS[c] === 0) return true;
  const next = text.charCodeAt(at + 1);
  return c === DASH && next >= 0x30 && next <= 0x39;
}

const INDICATORS = new Uint8Array(128);
for (const c of '-?:,[]{}#&*!|>\'"%@`') INDICATORS[c.charCodeAt(0)] = 1;
