/**
 * Writes the exported document as YAML with the `yaml` package's document model, so comments,
 * blank lines and one-line maps are real YAML nodes and not string concatenation. Strings are
 * quoted only where YAML needs it (`'@'`, `'*.example.com'`, ...). Long lists marked `lines` (a
 * zone's records) are written by ./flow-lines.ts and spliced in where a placeholder stands. All
 * strings pass through here, so this is the one place live text is escaped for the loader.
 */
import { Document, isCollection, isMap, isScalar, isSeq, visit, type Node, type Pair } from 'yaml';
import { padAsPrettier } from '../../config/format-yaml.js';
import { escapeStrings, stepsOf, type Steps } from './escape.js';
import { flowLines } from './flow-lines.js';
import type { ExportPath, LayoutHint } from './types.js';

/** Comment text to YAML comment lines: the `yaml` package adds `#` to each line; a leading space reads better. */
const asComment = (text: string) =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : ` ${l}`))
    .join('\n');

interface Located {
  node: Node | undefined;
  /** the pair holding the node when its parent is a map (comments before go on the key) */
  pair?: Pair;
}

function locate(doc: Document, path: ExportPath): Located {
  let node: unknown = doc.contents;
  let pair: Pair | undefined;
  for (const step of path) {
    pair = undefined;
    if (isMap(node)) {
      pair = node.items.find((p) => isScalar(p.key) && p.key.value === step) as Pair | undefined;
      node = pair?.value;
    } else if (isSeq(node) && typeof step === 'number') {
      node = node.items[step];
    } else {
      return { node: undefined };
    }
    if (node === undefined || node === null) return { node: undefined, pair };
  }
  return { node: node as Node, pair };
}

const append = (previous: string | null | undefined, text: string) =>
  previous ? `${previous}\n${text}` : text;

function apply(doc: Document, hint: LayoutHint): void {
  const { node, pair } = locate(doc, hint.path);
  const keyNode = pair && isScalar(pair.key) ? pair.key : undefined;
  if (!node && !keyNode) return;
  if (hint.flow && node && (isMap(node) || isSeq(node))) node.flow = true;
  const before = keyNode ?? node;
  if (hint.spaceBefore && before) before.spaceBefore = true;
  if (hint.commentBefore && before)
    before.commentBefore = append(before.commentBefore, asComment(hint.commentBefore));
  if (hint.comment && node) {
    const text = asComment(hint.comment);
    // A comment on a one-line scalar reads best after it; several lines go above its key instead.
    if (isScalar(node) && hint.comment.includes('\n') && keyNode) {
      keyNode.commentBefore = append(keyNode.commentBefore, text);
    } else {
      node.comment = append(node.comment, text);
    }
  }
}

interface LineList {
  token: string;
  /** where the list is: its verbatim paths are looked up from here */
  path: ExportPath;
  items: unknown[];
  /** ascending item indexes with a blank line before them */
  blankBefore: number[];
}

const startsWith = (path: ExportPath, prefix: ExportPath) =>
  path.length > prefix.length && prefix.every((step, i) => path[i] === step);

/** Replaces each `lines` list by a placeholder scalar (in a copy of the path to it). */
function holdLineLists(value: Record<string, unknown>, hints: LayoutHint[]) {
  const lists: LineList[] = [];
  let root: Record<string, unknown> = value;
  const rest: LayoutHint[] = [];
  const marked = hints.filter((h) => h.lines);
  for (const hint of marked) {
    const token = `zoneplan-lines-${lists.length}-placeholder`;
    const copy = (node: unknown, depth: number): unknown => {
      if (depth === hint.path.length) {
        const items = Array.isArray(node) ? node : [];
        lists.push({ token, path: hint.path, items, blankBefore: [...(hint.blankBefore ?? [])] });
        return Array.isArray(node) && node.length > 0 ? token : node;
      }
      const step = hint.path[depth];
      const clone = (Array.isArray(node) ? [...node] : { ...(node as object) }) as Record<
        string | number,
        unknown
      >;
      clone[step] = copy(clone[step], depth + 1);
      return clone;
    };
    root = copy(root, 0) as Record<string, unknown>;
  }
  for (const hint of hints) {
    const i = marked.findIndex((m) => startsWith(hint.path, m.path));
    if (i < 0) {
      if (!hint.lines) rest.push(hint);
      else if (hint.commentBefore || hint.comment) rest.push({ ...hint, lines: false });
      continue;
    }
    const index = hint.path[marked[i].path.length];
    if (hint.spaceBefore && typeof index === 'number') lists[i].blankBefore.push(index);
  }
  for (const list of lists) list.blankBefore.sort((a, b) => a - b);
  return { root, lists, rest };
}

/**
 * Flow collections as `zoneplan fmt` writes them (`{ k: v }`, `[a, b]`): every collection inside
 * a flow one is flow itself, and each says its own padding to the writer, as fmt's do.
 */
function padFlowAsFormatted(doc: Document): void {
  visit(doc, {
    Collection(_, node, path) {
      if (!node.flow && !path.some((p) => isCollection(p) && p.flow)) return;
      node.flow = true;
      padAsPrettier(node);
    },
  });
}

/** The node of `steps` at `path`, if any verbatim path goes through it. */
function stepsAt(steps: Steps | undefined, path: ExportPath): Steps | undefined {
  for (const step of path) steps = steps?.next.get(step);
  return steps;
}

/**
 * Renders `value` with its layout hints (full paths) under a header comment. Every string is
 * escaped for the loader's `${env:...}` resolution except those at `verbatim` paths (./escape.ts).
 */
export function writeYaml(
  value: Record<string, unknown>,
  hints: LayoutHint[],
  header: string,
  verbatim: readonly ExportPath[] = [],
): string {
  // the `lines` lists are escaped while written (flowLines), the rest here
  const { root, lists, rest } = holdLineLists(value, hints);
  const doc = new Document(escapeStrings(root, verbatim));
  for (const hint of rest) apply(doc, hint);
  padFlowAsFormatted(doc);
  doc.commentBefore = asComment(header);
  let text = doc.toString({ lineWidth: 0, singleQuote: true, flowCollectionPadding: true });
  const steps = verbatim.length > 0 ? stepsOf(verbatim) : undefined;
  for (const list of lists) {
    if (list.items.length === 0) continue;
    const line = new RegExp(`^( *)(- )?([^\\n]*?) ${list.token}( #[^\\n]*)?$`, 'm');
    text = text.replace(
      line,
      (_, spaces: string, dash: string | undefined, key: string, comment?: string) => {
        const indent = spaces.length + (dash ?? '').length + 2;
        const lines = flowLines(list.items, indent, list.blankBefore, { steps: stepsAt(steps, list.path) });
        return `${spaces}${dash ?? ''}${key}${comment ?? ''}\n${lines}`;
      },
    );
  }
  return text;
}
