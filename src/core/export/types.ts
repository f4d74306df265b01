/**
 * The contract between the export driver (src/core/export/) and the export half of the kinds
 * (`KindDefinition.export`, src/core/kind.ts). An exporter turns what its kind's runtime `read` returned for one
 * owner into the value the desired-state file holds under the kind's key, using the kind's own
 * normalisation, so that `plan` of the exported file against the same live state finds nothing to do.
 *
 * Exporters return live text as it is; the writer escapes what the loader would read as a
 * `${env:...}` reference (./escape.ts). Exporters are pure: no I/O, no clock, no process.env. What cannot be said in the file format
 * (a record type the reconciler does not manage, a job without a name) is never dropped silently:
 * it becomes a comment with the reason, and the exported value keeps `plan` from deleting it.
 */
import type { OwnerRef } from '../runtime.js';

/** A place inside the exported value: map keys and list indexes, e.g. `['records', 3]`. */
export type ExportPath = (string | number)[];

/**
 * How one node is written. `commentBefore` goes above the node (above its key for a map value);
 * `comment` after it (for a list or map: after its last item). Text may span lines; each line
 * becomes one `# ...` line.
 */
export interface LayoutHint {
  path: ExportPath;
  /** write the map or list on one line (`{ name: www, type: A, ... }`) */
  flow?: boolean;
  /**
   * for a list: write each item on one line (`- { ... }`) with a fast writer instead of the YAML
   * document model (for long lists such as a zone's records); hints inside it may only set
   * `spaceBefore` on items
   */
  lines?: boolean;
  /** a blank line before the node (groups the records of one name) */
  spaceBefore?: boolean;
  /**
   * for a `lines` list: the indexes of the items with a blank line before them (one hint for the
   * groups of a 10,000-record zone, instead of one `spaceBefore` hint per group)
   */
  blankBefore?: readonly number[];
  commentBefore?: string;
  comment?: string;
}

/**
 * An environment variable the exported file references as `${env:NAME}` instead of a secret.
 * The value is never part of the export; `describe` tells the user where to find it.
 */
export interface ExportVariable {
  name: string;
  /** e.g. `access-key-id of the job "http-to-bucket" of example.com` */
  describe: string;
}

/** A problem the export found in its own output (it would not validate); `path` is relative to the value. */
export interface ExportProblem {
  path: string;
  message: string;
}

export interface ExportContext {
  owner: OwnerRef & { id: string };
  /** the secret namer: `${env:NAME}` references derived from the owner and the object, stable per run */
  variables: VariableNamer;
  /**
   * Checks a candidate value with the same schema and semantic rules as `zoneplan validate`, as the
   * value under this kind's key of this owner; returns errors with paths relative to the value
   * (`records[3].content`). Exporters use it to turn what cannot be expressed into comments.
   */
  check(value: unknown): ExportProblem[];
  /**
   * Set when `live` is only the part of the owner's live state that other files do not manage
   * (`KindExport.unmanaged`): the value must leave the rest alone when planned on its own, so it
   * never purges (`purge: false` where the kind has it) and says no setting the part does not hold.
   */
  part?: boolean;
}

export interface VariableNamer {
  /** a unique, stable variable name built from the parts (upper-cased, non-alphanumerics as `_`) */
  name(parts: string[], describe: string): string;
}

export interface ExportResult {
  /** the value under the kind's key; undefined when there is nothing to write for this owner */
  value: Record<string, unknown> | undefined;
  layout?: LayoutHint[];
  /** notes for stderr (say what was left out and why; never a secret) */
  notes?: string[];
  /** counts for the summary line, e.g. `{ records: 12, ignored: 1 }` */
  counts?: Record<string, number>;
  /**
   * Strings already in file syntax: they hold `${env:NAME}` references, and the exporter escaped
   * their literal parts itself (with ./escape.ts). The writer escapes every other string, so a
   * literal `${env:` in a live value never reads back as a reference.
   */
  verbatim?: ExportPath[];
  /**
   * true when the exporter made sure every string of `value` can be spelled in the file (no
   * `${env:` without a `}` after it, ./escape.ts), e.g. record by record: the
   * driver then does not look through the value again.
   */
  spellable?: boolean;
}
