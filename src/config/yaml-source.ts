/**
 * Reads a desired-state file into plain data while remembering where every value came from.
 *
 * The file is hostile until proven otherwise (it may come from a pull request): its size, its
 * nesting depth and YAML alias expansion ("billion laughs") are bounded here, before anything
 * recursive touches the data, and every problem comes back as a located Diagnostic, never a throw.
 */
import { readFile, stat } from 'node:fs/promises';
import { Alias, isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { Diagnostic } from '../errors.js';
import type { SourceLocation } from './model.js';
import { parseJsonFast } from './json-fast-path.js';
import { childPath, parentPath } from './paths.js';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_DEPTH = 64;
/** yaml's own measure: alias resolutions times aliases in the source; 100 is its default. */
export const MAX_ALIAS_COUNT = 100;

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
   * dotted path -> location of the value at that path, and of the key of each map entry (for
   * unknown-key messages). Built on first use: a clean file of 100,000 records never pays for it.
   */
  locations(): SourceLocations;
}

export interface SourceLocations {
  values: Map<string, SourceLocation>;
  keys: Map<string, SourceLocation>;
}

/** Reads and parses one file; every problem, including an unreadable file, is a diagnostic. */
export async function readYamlSource(file: string): Promise<YamlSource> {
  const { createHash } = await import('node:crypto');
  const empty = (message: string): YamlSource => ({
    file,
    value: undefined,
    diagnostics: [{ file, line: 1, col: 1, path: '', message, severity: 'error' }],
    sha256: '',
    text: '',
    locations: () => ({ values: new Map([['', { file, line: 1, col: 1 }]]), keys: new Map() }),
  });
  let bytes: Buffer;
  try {
    const info = await stat(file);
    if (info.isDirectory()) return empty('is a directory, not a desired-state file');
    if (info.size > MAX_FILE_BYTES) {
      return empty(`file is ${info.size} bytes; desired-state files are limited to ${MAX_FILE_BYTES} bytes`);
    }
    bytes = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return empty(code === 'ENOENT' ? 'no such file' : `cannot read the file (${code ?? String(err)})`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return empty('file is not valid UTF-8 text');
  }
  const source = parseYamlText(file, text);
  source.sha256 = createHash('sha256').update(bytes).digest('hex');
  return source;
}

/** Parses YAML text (a JSON object takes the fast path unless told not to); never throws. */
export function parseYamlText(file: string, text: string, opts = { fastPath: true }): YamlSource {
  const lineCounter = new LineCounter();
  const diagnostics: Diagnostic[] = [];
  const at = (offset: number): SourceLocation => ({ file, ...lineCounter.linePos(offset) });
  const report = (
    offset: number,
    path: string,
    message: string,
    severity: Diagnostic['severity'] = 'error',
  ) => diagnostics.push({ ...at(offset), path, message, severity });

  const fast = opts.fastPath ? parseJsonFast(text, MAX_DEPTH) : undefined;
  if (fast !== undefined) return jsonSource(file, text, fast);
  const doc = parseYaml(text, lineCounter);
  for (const e of doc.errors) {
    const message =
      e.code === 'MULTIPLE_DOCS'
        ? 'a desired-state file holds one YAML document; this `---` starts a second one'
        : `YAML syntax error: ${firstLine(e.message)}`;
    report(e.pos[0], '', message);
  }
  for (const w of doc.warnings) report(w.pos[0], '', `YAML: ${firstLine(w.message)}`, 'warning');

  let built: SourceLocations | undefined;
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
      if (!built) {
        // a second, recording walk; its duplicate and depth reports were made by the first one
        built = { values: new Map([['', at(0)]]), keys: new Map() };
        const tree = kept ?? parseYaml(text, new LineCounter());
        if (tree.errors.length === 0 && tree.contents) {
          new Walker(at, () => {}, built).walk(tree.contents as YamlNode, '', 1);
        }
      }
      return built;
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

/** A source whose data came from the JSON fast path; locations come from a YAML parse on demand. */
function jsonSource(file: string, text: string, value: unknown): YamlSource {
  let built: SourceLocations | undefined;
  return {
    file,
    value,
    diagnostics: [],
    sha256: '',
    text,
    locations() {
      built ??= parseYamlText(file, text, { fastPath: false }).locations();
      return built;
    },
  };
}

function parseYaml(text: string, lineCounter: LineCounter): Document {
  // uniqueKeys is off so that duplicates are reported by the Walker with their dotted path.
  return parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, merge: true });
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

/**
 * Depth-bounded walk that reports duplicate or non-scalar keys, and records every location when
 * given maps to fill.
 */
class Walker {
  firstAlias = -1;
  constructor(
    private readonly at: (offset: number) => SourceLocation,
    private readonly report: (offset: number, path: string, message: string) => void,
    private readonly record?: SourceLocations,
  ) {}

  /** Returns false when the walk had to stop (too deep), so nothing recursive runs afterwards. */
  walk(node: YamlNode, path: string, depth: number): boolean {
    const offset = node.range?.[0] ?? 0;
    if (depth > MAX_DEPTH) {
      this.report(offset, path, `nesting deeper than ${MAX_DEPTH} levels is not allowed`);
      return false;
    }
    this.record?.values.set(path, this.at(offset));
    if (isAlias(node)) {
      // Not followed: an alias may point at a huge subtree; paths below it fall back to the alias.
      if (this.firstAlias < 0) this.firstAlias = offset;
      return true;
    }
    if (isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) {
        const item = node.items[i] as YamlNode | null;
        if (item && !this.walk(item, childPath(path, i), depth + 1)) return false;
      }
      return true;
    }
    if (isMap(node)) return this.walkMap(node.items, path, depth);
    return true;
  }

  private walkMap(pairs: { key: unknown; value: unknown }[], path: string, depth: number): boolean {
    const seen = new Map<string, number>();
    for (const pair of pairs) {
      const keyNode = pair.key as YamlNode | null;
      const keyOffset = keyNode?.range?.[0] ?? 0;
      if (!isScalar(keyNode)) {
        if (keyNode instanceof Alias) continue;
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
      this.record?.keys.set(keyPath, this.at(keyOffset));
      const value = pair.value as YamlNode | null;
      if (value) {
        if (!this.walk(value, keyPath, depth + 1)) return false;
      } else {
        this.record?.values.set(keyPath, this.at(keyOffset));
      }
    }
    return true;
  }
}

/** The recorded location of `path`, or of its nearest recorded ancestor. */
export function locate(locations: Map<string, SourceLocation>, path: string, file: string): SourceLocation {
  let p = path;
  for (;;) {
    const hit = locations.get(p);
    if (hit) return hit;
    if (p === '') return { file, line: 1, col: 1 };
    p = parentPath(p);
  }
}
