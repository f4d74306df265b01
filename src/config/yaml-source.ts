/**
 * Reads a desired-state file into plain data while remembering where every value came from.
 *
 * The file is hostile until proven otherwise (it may come from a pull request): its size, its
 * nesting depth and YAML alias expansion ("billion laughs") are bounded here, before anything
 * recursive touches the data, and every problem comes back as a located Diagnostic, never a throw.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import type { Diagnostic } from '../errors.js';
import type { SourceLocation } from './model.js';
import { MAX_NESTING_DEPTH } from '../rules/shared/nesting.js';
import { firstTooDeep } from '../rules/shared/deep-nesting.js';
import { readUserFile, UserFileError } from '../read-user-file.js';
import { byteLocation, decodeUtf8, firstInvalidUtf8 } from './utf8-text.js';
import { parseJsonFast } from './json-fast-path.js';
import { parseBlockYamlFast } from './yaml-fast-path.js';
import { MAX_ALIAS_COUNT } from './yaml-fast-values.js';
import { childPath, pathSteps } from './paths.js';
import { countInputBytes } from '../young-generation.js';
import { sha256 as sha256Hex } from '../core/canonical.js';

/**
 * `yaml` is loaded on first use (synchronously: locations are asked for from synchronous code): a
 * file that a fast path reads never needs it unless a problem must be located, and loading it is a
 * good part of a command's start-up.
 */
let yamlModule: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** the nesting limit shared with the local API's request bodies */
export const MAX_DEPTH = MAX_NESTING_DEPTH;
export { MAX_ALIAS_COUNT } from './yaml-fast-values.js';

export interface YamlSource {
  file: string;
  /** the parsed document as plain data; undefined when the file could not be read at all */
  value: unknown;
  diagnostics: Diagnostic[];
  /** hex sha256 of the file bytes */
  sha256: string;
  /** the file's text (for rebuilding locations later without keeping the YAML tree) */
  text: string;
  /**
   * Where each dotted path is in the file. Resolved one path at a time by walking the YAML tree
   * (re-parsed from the text on first use once the data is out): a clean file of 100,000 records
   * never pays for it, and a file with errors pays only for the paths it reports.
   */
  locations(): SourceLocator;
}

export interface SourceLocator {
  /** the location of the value at `path`, or of its nearest ancestor that the file has */
  value(path: string): SourceLocation;
  /** the location of the value at exactly `path`; undefined when the file has no value there */
  exact(path: string): SourceLocation | undefined;
  /** the location of the key of the map entry at `path` (for unknown-key messages) */
  key(path: string): SourceLocation | undefined;
}

/**
 * Reads and parses one file; every problem, including an unreadable file, is a diagnostic.
 * `given`: the file's bytes, when the caller read them already with readUserFile's checks (plan
 * scans the one file it names before the parse): parsed as they are, not read a second time.
 */
export async function readYamlSource(file: string, given?: Buffer): Promise<YamlSource> {
  const empty = (message: string): YamlSource => ({
    file,
    value: undefined,
    diagnostics: [{ file, line: 1, col: 1, path: '', message, severity: 'error' }],
    sha256: '',
    text: '',
    locations: () => fixedLocator({ file, line: 1, col: 1 }),
  });
  let bytes: Buffer;
  try {
    bytes = given ?? (await readUserFile(file, MAX_FILE_BYTES));
    countInputBytes(bytes.length);
  } catch (err) {
    if (!(err instanceof UserFileError)) throw err;
    if (err.code === 'EFBIG')
      return empty(`file ${err.reason.replace('files read here', 'desired-state files')}`);
    return empty(err.reason);
  }
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const source = empty(
      `file is not valid UTF-8 text: byte 0x${bytes[bad].toString(16).padStart(2, '0')} at offset ${bad}`,
    );
    Object.assign(source.diagnostics[0], byteLocation(bytes, bad));
    return source;
  }
  const source = parseYamlText(file, text);
  // taken when first read (a saved plan records it): validate and a plan need no node:crypto
  let sha256: string | undefined;
  Object.defineProperty(source, 'sha256', {
    get: () => (sha256 ??= sha256Hex(bytes)),
    enumerable: true,
  });
  return source;
}

/**
 * The source's hash as a function that holds the file's bytes only (not the parsed document), for
 * what keeps the hash until it is asked for (./load.ts).
 */
export function sha256Of(source: YamlSource): () => string {
  const get = Object.getOwnPropertyDescriptor(source, 'sha256')?.get as (() => string) | undefined;
  if (get) return get;
  const { sha256 } = source;
  return () => sha256;
}

/** Parses YAML text (a JSON object takes the fast path unless told not to); never throws. */
export function parseYamlText(file: string, given: string, opts = { fastPath: true }): YamlSource {
  const text = withLineFeeds(given);
  const diagnostics: Diagnostic[] = [];
  const fast = opts.fastPath
    ? (parseJsonFast(text, MAX_DEPTH) ?? parseBlockYamlFast(text, MAX_DEPTH))
    : undefined;
  if (fast !== undefined) return fastSource(file, text, fast);
  const lineCounter = new (yaml().LineCounter)();
  const at = (offset: number): SourceLocation => ({ file, ...lineCounter.linePos(offset) });
  const report = (
    offset: number,
    path: string,
    message: string,
    severity: Diagnostic['severity'] = 'error',
  ) => diagnostics.push({ ...at(offset), path, message, severity });

  const doc = parseYaml(text, lineCounter);
  for (const e of doc.errors) {
    if (/Maximum call stack size exceeded/.test(e.message)) {
      // the parser ran out of stack on a deeply nested file: say that, and where it gets too deep
      const deep = firstTooDeep(text, MAX_DEPTH) ?? e.pos[0];
      report(deep, '', `nesting deeper than the limit (${MAX_DEPTH} levels) starts here`);
      continue;
    }
    const message =
      e.code === 'MULTIPLE_DOCS'
        ? 'a desired-state file holds one YAML document; this `---` starts a second one'
        : `YAML syntax error: ${firstLine(e.message)}`;
    report(e.pos[0], '', message);
  }
  for (const w of doc.warnings) report(w.pos[0], '', `YAML: ${firstLine(w.message)}`, 'warning');

  let locator: SourceLocator | undefined;
  // The YAML tree is several times the size of the data; it is dropped once the data is out, and
  // re-parsed from the text only if a location is asked for.
  let kept: Document | undefined = doc;
  const source: YamlSource = {
    file,
    value: undefined,
    diagnostics,
    sha256: '',
    text,
    locations() {
      locator ??= treeLocator(kept ?? parseYaml(text, new (yaml().LineCounter)()), at);
      return locator;
    },
  };
  if (doc.errors.length > 0) return source;

  const walker = new Walker(at, report);
  if (doc.contents && !walker.walk(doc.contents as YamlNode, '', 1)) return source;
  if (diagnostics.some((d) => d.severity === 'error')) return source;
  source.value = toPlainData(doc, walker.firstAlias, report);
  if (source.value !== undefined) kept = undefined;
  return source;
}

/**
 * YAML 1.2 counts a lone carriage return (old Mac OS line ends) as a line break, as it does CR LF;
 * the yaml package and the fast paths know only LF and CR LF. One character for one keeps every
 * column and line where the file's editor shows it.
 */
function withLineFeeds(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/** A source whose data came from a fast path; locations come from a YAML parse on demand. */
function fastSource(file: string, text: string, value: unknown): YamlSource {
  let locator: SourceLocator | undefined;
  return {
    file,
    value,
    diagnostics: [],
    sha256: '',
    text,
    locations() {
      locator ??= locatorOfText(file, text);
      return locator;
    },
  };
}

function fixedLocator(at: SourceLocation): SourceLocator {
  return { value: () => at, exact: (path) => (path === '' ? at : undefined), key: () => undefined };
}

/**
 * Resolves paths by walking the tree along their steps: a list index is direct, a map key is the
 * first entry of that key (as the data has it; later duplicates are reported, not used). The walk
 * stops at an alias (paths below it are located at the alias) and at a missing step.
 */
/**
 * Where each path is in a file's text: one YAML parse, kept for the walks (the data is already
 * out, so nothing else of the parse is needed).
 */
export function locatorOfText(file: string, text: string): SourceLocator {
  const lineCounter = new (yaml().LineCounter)();
  return treeLocator(parseYaml(text, lineCounter), (offset) => ({ file, ...lineCounter.linePos(offset) }));
}

function treeLocator(doc: Document, at: (offset: number) => SourceLocation): SourceLocator {
  const root = doc.errors.length === 0 ? (doc.contents as YamlNode | null) : null;
  const offsetOf = (node: YamlNode | null | undefined) => node?.range?.[0] ?? 0;
  /** the deepest value reached, how many steps it took, and the key of the last map entry */
  const walk = (path: string) => {
    const steps = pathSteps(path);
    let node: YamlNode | null = root;
    let valueOffset = offsetOf(root);
    let keyNode: YamlNode | null = null;
    let reached = 0;
    for (const step of steps) {
      if (!node || yaml().isAlias(node)) break;
      let next: YamlNode | null | undefined;
      keyNode = null;
      if (yaml().isSeq(node) && typeof step === 'number')
        next = node.items[step] as YamlNode | null | undefined;
      else if (yaml().isMap(node)) {
        const pair = node.items.find((p) => yaml().isScalar(p.key) && String(p.key.value) === String(step));
        if (!pair) break;
        keyNode = pair.key as YamlNode;
        next = pair.value as YamlNode | null;
        // an entry without a value (`key:`) is located at its key
        if (!next) {
          reached++;
          valueOffset = offsetOf(keyNode);
          node = null;
          break;
        }
      }
      if (!next) break;
      node = next;
      valueOffset = offsetOf(next);
      reached++;
    }
    return { valueOffset, complete: reached === steps.length, keyNode };
  };
  return {
    value: (path) => at(walk(path).valueOffset),
    exact: (path) => {
      const w = walk(path);
      return w.complete ? at(w.valueOffset) : undefined;
    },
    key: (path) => {
      const w = walk(path);
      return w.complete && w.keyNode ? at(offsetOf(w.keyNode)) : undefined;
    },
  };
}

function parseYaml(text: string, lineCounter: LineCounter): Document {
  // uniqueKeys is off so that duplicates are reported by the Walker with their dotted path.
  return yaml().parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, merge: true });
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

/** Resolves aliases with yaml's expansion limit; a blown limit is a located error, not a throw. */
function toPlainData(
  doc: Document,
  firstAlias: number,
  report: (offset: number, path: string, message: string) => void,
): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    report(
      Math.max(firstAlias, 0),
      '',
      /alias/i.test(msg)
        ? `YAML aliases expand too much (more than ${MAX_ALIAS_COUNT} expansions); write the values out instead`
        : `cannot read the YAML document: ${firstLine(msg)}`,
    );
    return undefined;
  }
}

/** Depth-bounded walk that reports duplicate or non-scalar keys. */
class Walker {
  firstAlias = -1;
  constructor(
    private readonly at: (offset: number) => SourceLocation,
    private readonly report: (offset: number, path: string, message: string) => void,
  ) {}

  /** Returns false when the walk had to stop (too deep), so nothing recursive runs afterwards. */
  walk(node: YamlNode, path: string, depth: number): boolean {
    const offset = node.range?.[0] ?? 0;
    if (depth > MAX_DEPTH) {
      this.report(offset, path, `nesting deeper than ${MAX_DEPTH} levels is not allowed`);
      return false;
    }
    if (yaml().isAlias(node)) {
      // Not followed: an alias may point at a huge subtree; paths below it fall back to the alias.
      if (this.firstAlias < 0) this.firstAlias = offset;
      return true;
    }
    if (yaml().isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) {
        const item = node.items[i] as YamlNode | null;
        if (item && !this.walk(item, childPath(path, i), depth + 1)) return false;
      }
      return true;
    }
    if (yaml().isMap(node)) return this.walkMap(node.items, path, depth);
    return true;
  }

  private walkMap(pairs: { key: unknown; value: unknown }[], path: string, depth: number): boolean {
    const seen = new Map<string, number>();
    for (const pair of pairs) {
      const keyNode = pair.key as YamlNode | null;
      const keyOffset = keyNode?.range?.[0] ?? 0;
      if (!yaml().isScalar(keyNode)) {
        if (keyNode instanceof yaml().Alias) continue;
        this.report(keyOffset, path, 'map keys must be plain words, not lists or maps');
        continue;
      }
      const key = String(keyNode.value);
      if (key === '<<') continue; // a merge key; its aliases are expanded by toJS within the limit
      const keyPath = childPath(path, key);
      const first = seen.get(key);
      if (first !== undefined) {
        this.report(
          keyOffset,
          keyPath,
          `duplicate key \`${key}\` (first set on line ${this.at(first).line})`,
        );
        continue;
      }
      seen.set(key, keyOffset);
      const value = pair.value as YamlNode | null;
      if (value && !this.walk(value, keyPath, depth + 1)) return false;
    }
    return true;
  }
}
