/**
 * One-line YAML flow mappings for long lists (a zone's 10,000 records), written directly: the
 * `yaml` package's document model costs about 0.1 ms per node, which would make the export of a
 * large zone take many times longer than reading it. Each line is written as `zoneplan fmt` writes
 * it (docs/file-format.md, "Formatting"), so an exported file passes `fmt --check`: a string is
 * plain when the patterns fmt itself uses say it reads back as itself and holds no flow indicator
 * (src/config/yaml-scalars.ts); any other string is written by fmt's own writer
 * (flowStringAsFormatted), once per distinct string. Maps are `{ k: v }`, lists `[a, b]`.
 * The tests parse the output back and run fmt --check on it.
 */
import { escapeEnv, type Steps } from './escape.js';
import { plainReadsAsItself } from '../../config/yaml-scalars.js';
import { flowStringAsFormatted } from '../../config/format-yaml.js';

/** Whether `s` is written plain: it reads back as itself in every YAML reader, inside `{ }` too. */
export function isPlainSafe(s: string): boolean {
  return plainReadsAsItself(s, true);
}

/**
 * The strings that need quotes, as fmt writes them; a zone repeats a few of them (`'@'`) on many
 * records. Bounded: a zone of distinct odd strings costs a write each, not memory without end.
 */
const quoted = new Map<string, string>();

/** A scalar as flow text: plain where safe, else quoted as fmt quotes it. */
export function flowScalar(s: string): string {
  if (isPlainSafe(s)) return s;
  // a line break's quoted form depends on the line's indentation: JSON quoting reads back the same
  if (s.includes('\n')) return JSON.stringify(s);
  let text = quoted.get(s);
  if (text === undefined) {
    text = flowStringAsFormatted(s);
    if (quoted.size < 10_000) quoted.set(s, text);
  }
  return text;
}

/** A value as YAML flow text: maps as `{ k: v }`, lists as `[a, b]`; strings as they are. */
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
    let out = '[' + render(v[0], escape, steps?.next.get(0));
    for (let i = 1; i < v.length; i++) out += ', ' + render(v[i], escape, steps?.next.get(i));
    return out + ']';
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
