/**
 * What a plain (unquoted) YAML scalar means, in one place for every reader and writer of
 * desired-state files: the fast path that reads a file without the `yaml` package
 * (./yaml-fast-values.ts), the scan of a file's owners before it is parsed
 * (src/cli/pipeline/early-scan.ts), and the two writers that must agree on quoting: `zoneplan fmt`
 * (./format-yaml.ts) and the one-line records `zoneplan export` writes (src/core/export/flow-lines.ts),
 * both through plainReadsAsItself below. The files are read as the `yaml` package reads them: YAML 1.2
 * with its core schema, whose tags are tried in this order (the first whose pattern matches wins):
 *
 *   null    ``, `~`, `null`, `Null`, `NULL`
 *   bool    `true`, `True`, `TRUE`, `false`, `False`, `FALSE`
 *   int     `0o17` (octal), `-12`, `+12`, `007` (decimal), `0x1F` (hex)
 *   float   `.inf`, `-.Inf`, `.nan` (and the other spellings), `1e3`, `-1.5E-2`, `1.5`, `.5`, `1.`
 *   string  anything else
 *
 * A writer that wants every reader to read its text back as the same string also avoids what a
 * YAML 1.1 reader types otherwise (yaml11Typed): `yes`, `on`, `0755`, `1_000`, `1:30`, dates.
 */

const PLUS = 0x2b;
const DASH = 0x2d;
const DOT = 0x2e;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * The core schema's words: `~` and the null and boolean spellings, as parallel lists so that a
 * scalar is matched in place (wordAt), without a copy of its text.
 */
const WORDS = ['~', 'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE'];
const WORD_VALUES = [null, null, null, null, true, true, true, false, false, false];
// the core schema's number patterns, as the `yaml` package writes them, in its order
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** the most digits a decimal integer may have to be summed exactly in a double (10^15 < 2^53) */
const EXACT_DIGITS = 15;

/**
 * The value of a plain scalar's text (its structure already read: no indicator, comment or line
 * break in it) under the YAML 1.2 core schema, exactly as the `yaml` package resolves it.
 */
export const plainScalarValue = (text: string): string | number | boolean | null =>
  plainScalarAt(text, 0, text.length);

/**
 * plainScalarValue of `text.slice(from, to)`, typed from its characters: only a string, or a
 * number that needs a pattern, is copied out of the text (the reader of a 10,000-record file gives
 * 20,000 TTLs and booleans without a copy or a pattern).
 */
export function plainScalarAt(text: string, from: number, to: number): string | number | boolean | null {
  if (from === to) return null;
  const first = text.charCodeAt(from);
  // every number starts with a digit, a sign or a dot: other text is a word or a string
  if (!isDigit(first) && first !== PLUS && first !== DASH && first !== DOT) {
    const word = wordAt(text, from, to, first);
    return word === undefined ? text.slice(from, to) : word;
  }
  // the common decimal integer (a TTL, a priority) summed from its digits, without a pattern
  let i = first === PLUS || first === DASH ? from + 1 : from;
  const digits = i;
  let sum = 0;
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) break;
    sum = sum * 10 + (c - 0x30);
  }
  if (i === to && i > digits) {
    if (i - digits > EXACT_DIGITS) return parseInt(text.slice(from, to), 10);
    return first === DASH ? -sum : sum;
  }
  // no number has a `:` or two dots: an address (192.0.2.1, 2001:db8::1) is a string without a pattern
  let dots = 0;
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a || (c === DOT && ++dots > 1)) return text.slice(from, to);
  }
  return numberPatterns(text.slice(from, to), first);
}

/** The null or boolean word written from `from` to `to` (first character `first`), or undefined. */
function wordAt(text: string, from: number, to: number, first: number): null | boolean | undefined {
  const length = to - from;
  if (length !== 1 && length !== 4 && length !== 5) return undefined;
  for (let w = 0; w < WORDS.length; w++) {
    const word = WORDS[w]!;
    if (word.length === length && word.charCodeAt(0) === first && text.startsWith(word, from))
      return WORD_VALUES[w];
  }
  return undefined;
}

/** The core schema's number patterns, in the `yaml` package's order, on text that may be a number. */
function numberPatterns(text: string, first: number): string | number {
  if (INT_OCT.test(text)) return parseInt(text.slice(2), 8);
  if (INT.test(text)) return parseInt(text, 10);
  if (INT_HEX.test(text)) return parseInt(text.slice(2), 16);
  if (FLOAT_NAN.test(text)) {
    if (text.slice(-3).toLowerCase() === 'nan') return NaN;
    return first === DASH ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return parseFloat(text);
  return text;
}

/** Whether the `yaml` package reads this plain text as the very string it is. */
export const readsAsString = (text: string): boolean => typeof plainScalarValue(text) === 'string';

// what a YAML 1.1 reader types otherwise: numbers with `_` and `0`-octals, sexagesimals, dates,
// and the boolean and null words (in any case: the characters are ASCII where this is asked)
const YAML11_NUMBER =
  /^[-+]?(\.\d+|\d[\d_]*(\.\d*)?)([eE][-+]?\d+)?$|^0x[0-9a-fA-F_]+$|^0o?[0-7_]+$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/;
const YAML11_SEXAGESIMAL = /^[-+]?\d[\d_]*(:[0-5]?\d)+(\.\d*)?$/;
const YAML11_WORDS = new Set(['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null']);
const YAML11_DATE = /^\d{4}-\d\d?-\d\d?/;

/**
 * Whether a YAML 1.1 reader (or the 1.2 core schema) may read this plain ASCII text as something
 * other than a string: a number, a sexagesimal, a date, a boolean or null. The patterns run only
 * where they can match: numbers, sexagesimals and dates start with a digit, a sign or a dot; the
 * words are at most five letters.
 */
export function yaml11Typed(text: string): boolean {
  const c = text.charCodeAt(0);
  if (isDigit(c) || c === PLUS || c === DASH || c === DOT) {
    let dots = 0;
    let colons = 0;
    for (let i = 0; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === DOT) dots++;
      else if (d === 0x3a) colons++;
    }
    // a number has no `:` and one `.` at most, a sexagesimal a `:` and one `.` at most, a date a
    // `-` fifth (addresses such as 192.0.2.1 or 2001:db8::1 need none of the patterns)
    if (colons === 0 && dots < 2 && YAML11_NUMBER.test(text)) return true;
    if (colons > 0 && dots < 2 && YAML11_SEXAGESIMAL.test(text)) return true;
    if (text.charCodeAt(4) === DASH && YAML11_DATE.test(text)) return true;
  }
  return text.length <= 5 && YAML11_WORDS.has(text.toLowerCase());
}

/**
 * What the `yaml` package's writer never writes plain (an indicator first, `: `, ` #`, a blank or
 * `:` last, a lone `-` or `?`, a document marker), and every line break, control character, BOM
 * and lone surrogate: such text is quoted, or decided by a parse (see plainReadsAsItself).
 */
const PLAIN_REFUSED =
  /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]|^[\t ,[\]{}#&*!|>'"%@`?:-]|:[\t ]|[\t ]#|[\t :]$|^(?:---|\.\.\.)/;

/** What ends a plain scalar inside a flow collection (`{ ... }`, `[...]`): a writer quotes text holding one. */
const FLOW_INDICATOR = /[[\]{},]/;
const isFlowIndicator = (c: number) => c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;

/**
 * Whether `text`, written plain (as a whole value, outside a flow collection), reads back as this
 * very string in YAML 1.2 (core schema) and in YAML 1.1; `inFlow`: inside a flow collection
 * (`{ k: text }`), where a flow indicator (`,[]{}`) would end it too. True is certain; false is certain or
 * "not decided by these patterns" (a rare text: a leading `-`, `?` or `:`, a control character,
 * a date-like prefix): the writers then ask a YAML parser, and both ask it the same question, so
 * `zoneplan export` writes every string as `zoneplan fmt` does. One scan, no parse: it runs for
 * every value of every record of an export.
 */
export function plainReadsAsItself(text: string, inFlow = false): boolean {
  const n = text.length;
  if (n === 0) return false;
  // the common text (names, addresses, words and blanks) in one scan without the pattern: a first
  // character that is no indicator, `.` or `-` (document markers), then printable ASCII with no
  // `: `, ` #` or blank or `:` at the end; anything else is left to PLAIN_REFUSED
  let scanned = FIRST[text.charCodeAt(0)] === 1;
  let previous = 0;
  for (let i = 1; scanned && i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || REST[c] === 0) scanned = false;
    else if ((c === 32 && previous === 58) || (c === 35 && previous === 32)) return false;
    else if (inFlow && isFlowIndicator(c)) return false;
    previous = c;
  }
  if (scanned ? previous === 32 || previous === 58 : PLAIN_REFUSED.test(text)) return false;
  if (!scanned && inFlow && FLOW_INDICATOR.test(text)) return false;
  return readsAsString(text) && !yaml11Typed(text);
}

/** The ASCII characters (by code) that the one scan of plainReadsAsItself lets through. */
const charTable = (accepts: (c: number) => boolean) => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) table[c] = accepts(c) ? 1 : 0;
  return table;
};
const FIRST = charTable((c) => /[A-Za-z0-9_/=+;()~$^\\<]/.test(String.fromCharCode(c)));
/** printable ASCII and the blank (a tab goes to the pattern) */
const REST = charTable((c) => c >= 32 && c < 127);
