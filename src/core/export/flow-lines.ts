/**
 * One-line YAML flow mappings for long lists (a zone's 10,000 records), written directly: the
 * `yaml` package's document model costs about 0.1 ms per node, which would make the export of a
 * large zone take many times longer than reading it. Scalars are written plain only when that is
 * unambiguous in every YAML reader (no indicator characters, nothing that reads as a number,
 * boolean, null or date, YAML 1.1 included: the rules of src/config/yaml-scalars.ts); otherwise
 * single-quoted, or double-quoted (JSON escapes are valid YAML) when they hold control characters.
 * The tests parse the output back.
 */
import { escapeEnv, type Steps } from './escape.js';
import { readsAsString, yaml11Typed } from '../../config/yaml-scalars.js';

const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/;

/** The characters a plain scalar may start with, and those it may go on with (ASCII codes). */
const charTable = (chars: string) => {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
};
const LETTERS_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const FIRST = charTable(`${LETTERS_DIGITS}_./=+`);
const REST = charTable(`${LETTERS_DIGITS}_./=+-;:@*()'"% `);

/**
 * Whether `s` can be written plain: only the characters above (no indicator, comment or flow
 * character, nothing outside ASCII), no `: `, no two blanks, no blank or `:` at the end, and
 * read back as this very string by every reader (the YAML 1.2 core schema and YAML 1.1: no
 * number, sexagesimal, date or boolean/null word). One scan of the characters (it runs for every
 * value of every record), then the scalar rules.
 */
export function isPlainSafe(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || (i === 0 ? FIRST[c] : REST[c]) === 0) return false;
    if (c === 32 && (previous === 58 || previous === 32)) return false;
    previous = c;
  }
  if (previous === 32 || previous === 58) return false;
  return readsAsString(s) && !yaml11Typed(s);
}

/** A scalar as flow text: plain where safe, else quoted (JSON quoting for control characters). */
export function flowScalar(s: string): string {
  if (isPlainSafe(s)) return s;
  if (CONTROL.test(s)) return JSON.stringify(s);
  return `'${s.replace(/'/g, "''")}'`;
}

/** A value as YAML flow text: maps as `{ k: v }`, lists as `[ a, b ]`; strings as they are. */
export function flowValue(v: unknown): string {
  return render(v, false, undefined);
}

/**
 * Keys repeat on every record (`name`, `type`, `ttl`): their written form is remembered, with what
 * goes before it (`{ ` for the first key of a map, `, ` for the others) and the `: ` after it, so
 * that a record's line takes two concatenations a field.
 */
const keys = new Map<string, { first: string; next: string }>();

function flowKey(k: string, first: boolean): string {
  let q = keys.get(k);
  if (q === undefined) {
    const text = flowScalar(k);
    q = { first: `{ ${text}: `, next: `, ${text}: ` };
    if (keys.size < 1000) keys.set(k, q);
  }
  return first ? q.first : q.next;
}

/**
 * flowValue, built by concatenation with no intermediate arrays (it runs once per record of a
 * zone). With `escape`, strings are escaped for the loader as they are written (./escape.ts),
 * except at the verbatim paths of `steps`: one walk instead of a copy of the list and a second one.
 */
function render(v: unknown, escape: boolean, steps: Steps | undefined): string {
  if (typeof v === 'string') {
    if (!escape || steps?.here || !v.includes('{env:')) return flowScalar(v);
    return flowScalar(escapeEnv(v));
  }
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : flowScalar(String(v));
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    let out = '[ ' + render(v[0], escape, steps?.next.get(0));
    for (let i = 1; i < v.length; i++) out += ', ' + render(v[i], escape, steps?.next.get(i));
    return out + ' ]';
  }
  let out = '';
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined) continue;
    out += flowKey(k, out === '') + render(x, escape, steps?.next.get(k));
  }
  return out === '' ? '{}' : out + ' }';
}

/**
 * The items of a list, one line each at `indent` spaces (`- { ... }`), with a blank line before the
 * items whose indexes `blankBefore` lists (ascending). With `escape`, strings are escaped for the
 * loader except at the verbatim paths under the list (`escape.steps`, the list's node).
 */
export function flowLines(
  items: unknown[],
  indent: number,
  blankBefore: readonly number[],
  escape?: { steps: Steps | undefined },
): string {
  const pad = ' '.repeat(indent) + '- ';
  let out = '';
  let blank = 0; // the next entry of blankBefore
  for (let i = 0; i < items.length; i++) {
    while (blank < blankBefore.length && blankBefore[blank] < i) blank++;
    if (blank < blankBefore.length && blankBefore[blank] === i) out += i > 0 ? '\n\n' : '\n';
    else if (i > 0) out += '\n';
    out += pad + render(items[i], escape !== undefined, escape?.steps?.next.get(i));
  }
  return out;
}
