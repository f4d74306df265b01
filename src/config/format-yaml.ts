/**
 * `zoneplan fmt`'s one layout of a desired-state file (docs/file-format.md, "Formatting"): keys in
 * the schema's order (./key-order.ts), a string quoted only where plain text would read as
 * something else (then in single quotes), two-space indentation, no line folding. What the file
 * chose is kept: its comments and blank lines, each map and list flow (`{ ... }`) or block as
 * written, anchors and aliases, block scalars (`|`, `>`). The result is checked before it is
 * returned: it must read back as the very same data, or the file is left alone.
 */
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type * as Yaml from 'yaml';
import type { Document, Node as YamlNode, Pair, Scalar, ToStringOptions, YAMLMap, YAMLSeq } from 'yaml';
import type { Diagnostic } from '../errors.js';
import { keyRanks, placeOfItems, placeOfKey, type Place, type ScalarOf } from './key-order.js';
import { MAX_ALIAS_COUNT, MAX_DEPTH } from './yaml-source.js';
import { plainReadsAsItself } from './yaml-scalars.js';
import { firstTooDeep } from '../rules/shared/deep-nesting.js';

// loaded on use, like ./yaml-source.ts: only fmt needs it here
let yamlModule: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

/** The layout every formatted file is written in. */
const LAYOUT: ToStringOptions = {
  indent: 2,
  indentSeq: true,
  // a long line stays one line: folding would move comments' neighbours and make diffs noisy
  lineWidth: 0,
  minContentWidth: 0,
  singleQuote: true,
  flowCollectionPadding: true,
  defaultStringType: 'PLAIN',
  defaultKeyType: null,
};

export type FormatResult =
  | { text: string }
  | { diagnostics: Diagnostic[] }
  /** a YAML file with no top-level `version:` (a fixtures file): not formatted */
  | { notDesired: true };

/** The file's text in the canonical layout, or why it cannot be formatted (nothing is changed then). */
export function formatYaml(file: string, text: string, place: Place): FormatResult {
  const problem = (offset: number, message: string): FormatResult => ({
    diagnostics: [{ file, ...lineAndColumn(text, offset), path: '', message, severity: 'error' }],
  });
  const parse = (t: string) => yaml().parseDocument(t, { prettyErrors: false, merge: true });
  // the walk below is recursive: a file nested past the loader's limit is refused as it refuses it
  const deep = firstTooDeep(text, MAX_DEPTH);
  if (deep !== undefined)
    return problem(deep, `nesting deeper than the limit (${MAX_DEPTH} levels) starts here`);
  let doc: Document;
  try {
    doc = parse(text);
  } catch (err) {
    // the parser reports its problems as errors of the document; this is for anything it throws
    return problem(0, `YAML syntax error: ${(err as Error).message.split('\n')[0]}`);
  }
  const e = doc.errors[0];
  if (e)
    return problem(
      e.pos[0],
      e.code === 'MULTIPLE_DOCS'
        ? 'a desired-state file holds one YAML document; this `---` starts a second one'
        : `YAML syntax error: ${e.message.split('\n')[0]}`,
    );
  const before = dataOf(doc);
  if ('error' in before) return problem(0, before.error);
  const Y = yaml();
  if (!Y.isMap(doc.contents) || !doc.contents.has('version')) return { notDesired: true };
  arrange(doc.contents as YamlNode, place, text);
  const formatted = doc.toString(LAYOUT);
  // what is written must be read as what was read: otherwise a bug here would change a zone
  const after = dataOf(yaml().parseDocument(formatted, { merge: true }));
  if ('error' in after || !isDeepStrictEqual(sortedKeys(after.value), sortedKeys(before.value)))
    return problem(
      0,
      'the formatted text would not read as the same data; the file is left as it is (a bug: please report it)',
    );
  return { text: formatted };
}

/** 1-based line and column of an offset of the text (before or without a parse). */
function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

function dataOf(doc: Document): { value: unknown } | { error: string } {
  if (doc.errors.length > 0) return { error: `YAML syntax error: ${doc.errors[0]!.message.split('\n')[0]}` };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (err) {
    return { error: `the file cannot be read as data: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** Key order is what fmt changes on purpose: the data are compared without it. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value instanceof Map) return sortedKeys(Object.fromEntries(value));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/** Orders the keys of every map below `node` and lets every string take its canonical quoting. */
function arrange(node: YamlNode, place: Place, text: string): void {
  const Y = yaml();
  if (Y.isScalar(node)) {
    if (typeof node.value === 'string' && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'))
      node.type = quotingOf(node.value);
    return;
  }
  if (Y.isCollection(node) && node.flow) padAsPrettier(node);
  if (Y.isSeq(node)) {
    const items = placeOfItems(place);
    for (const item of node.items) if (Y.isNode(item)) arrange(item, items, text);
    return;
  }
  if (!Y.isMap(node)) return; // an alias: its anchor's node is arranged where it stands
  const pairs = node.items as Pair<unknown, unknown>[];
  const scalarOf: ScalarOf = (key) => {
    const pair = pairs.find((p) => keyText(p) === key);
    return pair && Y.isScalar(pair.value) ? { value: pair.value.value } : undefined;
  };
  const ranks = keyRanks(place, scalarOf);
  // a merge key (`<<: *defaults`) first, then the schema's keys, then the others as they stood
  const rank = (p: Pair<unknown, unknown>) => {
    const k = keyText(p);
    if (k === '<<') return -1;
    return (k !== undefined ? ranks.get(k) : undefined) ?? ranks.size;
  };
  const order = pairs.map((p, i) => ({ p, i, r: rank(p) }));
  order.sort((a, b) => a.r - b.r || a.i - b.i);
  node.items = order.map((o) => o.p);
  // the first pair's blank line and comment above belong to the map's place, not to that key
  moveLeadingSpace(pairs[0], node.items[0] as Pair<unknown, unknown> | undefined);
  for (const p of node.items as Pair<unknown, unknown>[]) {
    if (Y.isScalar(p.key)) arrange(p.key, [], text);
    keepCommentOnKeyLine(p, text);
    const k = keyText(p);
    if (Y.isNode(p.value)) arrange(p.value, k === undefined ? [] : placeOfKey(place, k, scalarOf), text);
  }
}

/**
 * The quotes of a string: none when plain text reads back as this very string, in YAML 1.2 and
 * in YAML 1.1 alike (`yes`, `on`, `2024-05-01` and `0777` are other values to 1.1 readers, such
 * as older editors' plugins), else single quotes, or double ones for a value single quotes cannot
 * hold (a control character). Undefined lets the writer choose, and it still quotes what would not
 * parse where it stands (a `,` inside `{ }`, a `: ` in a key).
 */
function quotingOf(value: string): Scalar.Type | undefined {
  // most strings of a file read as themselves by the shared patterns, the ones `zoneplan export`
  // uses too (./yaml-scalars.ts): no parse for them
  if (plainReadsAsItself(value)) return undefined;
  let type = quotings.get(value);
  if (type === undefined && !quotings.has(value)) {
    type = parsedQuoting(value);
    quotings.set(value, type);
  }
  return type;
}

/** the same string value is often given many times (record types, targets): decided once */
const quotings = new Map<string, Scalar.Type | undefined>();

function parsedQuoting(value: string): Scalar.Type | undefined {
  const Y = yaml();
  const readsAs = (schema: 'core' | 'yaml-1.1') => {
    try {
      // silent: a value such as `!x` or `%x` is only being tried, not read from a file
      return Y.parse(value, { schema, logLevel: 'silent' }) === value;
    } catch {
      return false;
    }
  };
  if (value !== '' && readsAs('core') && readsAs('yaml-1.1')) return undefined;
  return /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/.test(value) ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE';
}

/**
 * A string as fmt writes it inside a flow collection (`{ k: here }`), for the strings the shared
 * patterns do not let through plain (./yaml-scalars.ts): `zoneplan export` writes those with this,
 * so that its file is as fmt leaves it. Written by the same writer, options and quoting as a file
 * fmt formats; a string with a line break is not asked here (its quoted form depends on its
 * indentation).
 */
export function flowStringAsFormatted(value: string): string {
  const Y = yaml();
  const doc = new Y.Document(['']);
  const list = doc.contents as YAMLSeq<Scalar>;
  list.flow = true;
  const item = list.items[0]!;
  item.value = value;
  item.type = quotingOf(value);
  const text = doc.toString(LAYOUT);
  // `[ text ]` and a line end around it
  return text.slice(2, -3);
}

/**
 * The flow layout of the repository's formatter (Prettier): `{ name: www }` and `[a, b]`, so a
 * formatted file is also as Prettier leaves it. The yaml writer pads both or neither: each flow
 * collection says its own padding to the writer.
 */
export function padAsPrettier(node: YAMLMap | YAMLSeq): void {
  const padding = yaml().isMap(node) ? ' ' : '';
  const own = node.toString.bind(node) as (ctx?: object, ...rest: unknown[]) => string;
  node.toString = ((ctx?: object, ...rest: unknown[]) =>
    own(ctx && { ...ctx, flowCollectionPadding: padding }, ...rest)) as typeof node.toString;
}

/**
 * `dns: # a comment` over a block map: the reader gives the comment to the map below, and the
 * writer would put it on a line of its own. When it stood on the key's line, it goes back there.
 */
function keepCommentOnKeyLine(p: Pair<unknown, unknown>, text: string): void {
  const Y = yaml();
  const { key, value } = p;
  if (!Y.isScalar(key) || key.comment || !Y.isCollection(value) || value.flow || !value.commentBefore) return;
  const keyEnd = key.range?.[1];
  const valueStart = value.range?.[0];
  if (keyEnd === undefined || valueStart === undefined) return;
  const between = text.slice(keyEnd, valueStart);
  const hash = between.indexOf('#');
  if (hash < 0 || between.slice(0, hash).includes('\n')) return;
  const [first, ...rest] = value.commentBefore.split('\n');
  key.comment = first;
  value.commentBefore = rest.length > 0 ? rest.join('\n') : undefined;
}

function keyText(p: Pair<unknown, unknown>): string | undefined {
  const Y = yaml();
  const key = Y.isScalar(p.key) ? p.key.value : p.key;
  return typeof key === 'string' ? key : undefined;
}

/**
 * When sorting changed the first key, the comment and blank line above the map stay on top: they
 * are the file's header (or the entry's), read as the first key's by the parser.
 */
function moveLeadingSpace(
  was: Pair<unknown, unknown> | undefined,
  now: Pair<unknown, unknown> | undefined,
): void {
  const Y = yaml();
  if (!was || !now || was === now || !Y.isNode(was.key) || !Y.isNode(now.key)) return;
  if (was.key.spaceBefore) {
    now.key.spaceBefore = true;
    was.key.spaceBefore = false;
  }
  if (was.key.commentBefore) {
    now.key.commentBefore = [was.key.commentBefore, now.key.commentBefore].filter(Boolean).join('\n');
    was.key.commentBefore = undefined;
  }
}
