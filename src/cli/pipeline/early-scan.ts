/**
 * The owners a desired-state file names, read from its text before it is parsed, so that the early
 * reads (./early-reads.ts) can look the zones up while the file is still being parsed: a zone's
 * DNS list needs its id, and with the lookup's answer in hand before the parse, the server prepares
 * the large list (10,000 records take it longer than the parse) while the file is parsed and
 * checked, instead of after the parse.
 *
 * This is not a YAML parser: it reads the one common shape, block style at the levels it looks at,
 *
 *   version: 1
 *   zones:
 *     - name: example.com
 *       account: 0123456789abcdef0123456789abcdef
 *       dns:
 *         ...            (anything deeper is skipped unread)
 *
 * and gives up (undefined) at the first thing outside it: any other layout, a top-level `accounts`,
 * a value it cannot type with certainty (only strings are taken: quoted, or plain scalars of
 * letters, digits and `_ . -` that every YAML reader reads as strings, by the rules of
 * src/config/yaml-scalars.ts),
 * anchors, tags, flow or block scalars at those levels.
 * Giving up costs nothing but the head start; what it returns is what the parsed document gives
 * at those levels (test/cli/early-scan.test.ts compares the two), so the requests it starts are the
 * very ones the parsed file would start, and the run checks that before using them.
 */

import { readsAsString, yaml11Typed } from '../../config/yaml-scalars.js';

/** A plain scalar whose structure is certain: nothing in it but letters, digits and `_ . -`. */
const CERTAIN_PLAIN = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?: +(.*))?$/;

/** A scalar value that is certainly this string, or undefined. `raw` is the text after `key: `. */
function stringValue(raw: string): string | undefined {
  const text = withoutComment(raw);
  if (text === undefined) return undefined;
  if (text.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'$/.exec(text);
    return m ? m[1]!.replaceAll("''", "'") : undefined;
  }
  if (text.startsWith('"')) {
    const m = /^"([^"\\]*)"$/.exec(text);
    return m ? m[1] : undefined;
  }
  // a string under any schema: a file that names YAML 1.1 starts with a directive, where the scan
  // gives up anyway, yet what is certain costs nothing more
  return CERTAIN_PLAIN.test(text) && readsAsString(text) && !yaml11Typed(text) ? text : undefined;
}

/**
 * The value text without a trailing comment, trimmed; undefined when a `#` may be part of it (in
 * quotes) and the quotes do not settle where it ends.
 */
function withoutComment(raw: string): string | undefined {
  const hash = raw.search(/ #|\t#/);
  if (hash < 0) return raw.trim();
  const before = raw.slice(0, hash).trim();
  // a `#` inside quotes: only a value that is one quoted string up to the comment is clear
  if ((before.startsWith("'") || before.startsWith('"')) && !/^(['"]).*\1$/.test(before)) return undefined;
  return before;
}

/** What a key's value is, at the levels the scan reads: a string, or nested (block or flow) content. */
type Value = { string: string } | { nested: true } | undefined;

/**
 * `raw` is the text after `key:`. Empty (content follows on deeper lines, or null) and one-line
 * flow collections are nested content; a certain string is a string; anything else is unknown.
 */
function valueOf(raw: string | undefined): Value {
  const text = raw === undefined ? '' : withoutComment(raw);
  if (text === undefined) return undefined;
  if (text === '') return { nested: true };
  if (/^\{[^{}#]*\}$|^\[[^[\]#]*\]$/.test(text)) return { nested: true };
  const s = stringValue(text);
  return s === undefined ? undefined : { string: s };
}

/** The lines of `text` at indentation `maxIndent` or less (deeper ones skipped unread), from `at`. */
class ShallowLines {
  private readonly next: RegExp;
  constructor(
    private readonly text: string,
    maxIndent: number,
  ) {
    // a line starting with at most maxIndent spaces and then something else than a space
    this.next = new RegExp(`^ {0,${maxIndent}}(?=[^ \\r\\n])`, 'gm');
  }
  /** The next such line at or after `from`: where it starts, its indentation, its text (no line end), where the next begins. */
  read(from: number): { start: number; indent: number; line: string; end: number } | undefined {
    for (let at = from; ;) {
      this.next.lastIndex = at;
      const m = this.next.exec(this.text);
      if (!m) return undefined;
      const start = m.index;
      let end = this.text.indexOf('\n', start);
      if (end < 0) end = this.text.length;
      const line = this.text.slice(start + m[0].length, end).replace(/\r$/, '');
      at = end + 1;
      if (line === '' || line.startsWith('#')) continue; // blank or comment
      return { start, indent: m[0].length, line, end: at };
    }
  }
}

/** Whether the text has a line deeper than `indent` between `from` and `to` (content of the line before). */
function hasDeeper(text: string, from: number, to: number, indent: number): boolean {
  return to > from && new RegExp(`^ {${indent + 1},}[^ \\r\\n#]`, 'm').test(text.slice(from, to));
}

/**
 * The file's owners as a document of the parsed file's shape at the levels the early reads look at
 * (`zones` entries with their string values, nested values as `{}`, other top-level keys as `{}`),
 * or undefined when the text is not of the one shape this reads (see the file comment).
 */
export function scanOwners(text: string): Record<string, unknown> | undefined {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const top = new ShallowLines(text, 0);
  const doc: Record<string, unknown> = {};
  let at = 0;
  for (let l = top.read(at); l; l = top.read(at)) {
    const key = KEY.exec(l.line);
    if (!key || key[1]! in doc) return undefined; // `---`, `- `, `{`, a quoted key, a repeated key
    const name = key[1]!;
    if (name === 'accounts') return undefined;
    if (name !== 'zones') {
      // version, vars, target...: their presence is what counts (`target` keeps reads for later)
      doc[name] = {};
      at = l.end;
      continue;
    }
    const rest = key[2] === undefined ? '' : withoutComment(key[2]);
    if (rest === '[]') {
      doc.zones = [];
      at = l.end;
      continue;
    }
    if (rest !== '') return undefined;
    const zones = scanZones(text, l.end);
    if (!zones) return undefined;
    doc.zones = zones.entries;
    at = zones.end;
  }
  return 'zones' in doc ? doc : undefined;
}

/** The block sequence of zone entries starting after `from`; where it ends (the next top-level line). */
function scanZones(
  text: string,
  from: number,
): { entries: Record<string, unknown>[]; end: number } | undefined {
  // the first item fixes the sequence's indentation, and its first key the entries' key column
  const first = new ShallowLines(text, 64).read(from);
  if (!first) return undefined;
  const dash = /^(- +)(?=\S)/.exec(first.line);
  if (!dash) return undefined; // `zones:` with nothing under it, or not a sequence
  const itemIndent = first.indent;
  const keyIndent = itemIndent + dash[1]!.length;
  const lines = new ShallowLines(text, keyIndent);
  const entries: Record<string, unknown>[] = [];
  let entry: Record<string, unknown> | undefined;
  let at = from;
  for (let l = lines.read(at); l; l = lines.read(at)) {
    let line = l.line;
    if (l.indent === 0 && itemIndent > 0) return { entries, end: at }; // the next top-level key
    if (l.indent === itemIndent && line.startsWith('- ')) {
      const item = /^(- +)(?=\S)/.exec(line);
      if (!item || itemIndent + item[1]!.length !== keyIndent) return undefined;
      entries.push((entry = {}));
      line = line.slice(item[1]!.length);
    } else if (l.indent === 0) {
      return { entries, end: at }; // a top-level key after a sequence at column 0
    } else if (l.indent !== keyIndent || !entry) return undefined;
    const key = KEY.exec(line);
    if (!key || key[1]! in entry) return undefined;
    const value = valueOf(key[2]);
    if (!value) return undefined;
    // a string's value ends on its line: a deeper line after it would continue it (or be an error)
    if ('string' in value) {
      if (hasDeeper(text, l.end, lines.read(l.end)?.start ?? text.length, keyIndent)) return undefined;
      entry[key[1]!] = value.string;
    } else entry[key[1]!] = {};
    at = l.end;
  }
  return { entries, end: text.length };
}
