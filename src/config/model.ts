/**
 * The desired-state file (docs/reference/design.md section 2) as typed data, after loading and validation.
 * This is the contract between src/config/ (which produces it) and the reconciler (which reads it);
 * the value under each kind's key is typed in the kind's folder (src/kinds/<kind>/desired.ts).
 * The JSON Schema in schema/ is the truth about the file; these types mirror it.
 *
 * Values written as `${env:NAME}` are already resolved here; every resolved value is registered with
 * src/redact.ts so that no output, plan file or journal can contain it.
 */

export interface DesiredState {
  version: 1;
  /**
   * where the file(s) came from (for messages and the saved plan's hashes): `sha256s` are those of
   * `files`, one each; `sha256` is the single file's, or one hash of them all (src/config/merge.ts)
   */
  source: { files: string[]; sha256: string; sha256s?: string[] };
  target?: TargetSpec;
  accounts: DesiredAccount[];
  zones: DesiredZone[];
  /**
   * dotted path -> source location (of the value; a path below an alias or a missing key has no
   * entry: look up its nearest ancestor), for kinds that report problems found after loading.
   * Filled on first use (src/config/locations.ts), so a clean plan never pays for it.
   */
  locations: Map<string, SourceLocation>;
}

export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export type TargetSpec = { api_url: string } | { local: { db?: string; fixtures?: string } };

/**
 * An account entry. Each kind's value is under the kind's key (`KindDefinition.key`), typed by the
 * kind itself (src/kinds/<kind>/desired.ts).
 */
export interface DesiredAccount {
  id: string;
  /** marks the objects zoneplan writes for this entry (docs/sharing-a-zone.md) */
  owner?: string;
  /** with owner: take over unmarked live objects the file names */
  adopt?: boolean;
  /** dotted path of this entry in the file, e.g. `accounts[0]` */
  path: string;
  [kindKey: string]: unknown;
}

/**
 * A zone entry. Each kind's value is under the kind's key (`KindDefinition.key`), typed by the kind
 * itself (src/kinds/<kind>/desired.ts).
 */
export interface DesiredZone {
  name: string;
  /** account id */
  account?: string;
  /** only with `delete: true` is a zone ever deleted */
  delete?: boolean;
  type?: 'full' | 'partial' | 'secondary';
  /** marks the objects zoneplan writes for this entry (docs/sharing-a-zone.md) */
  owner?: string;
  /** with owner: take over unmarked live objects the file names */
  adopt?: boolean;
  path: string;
  [kindKey: string]: unknown;
}
