/**
 * The value under `dns` of a zone entry as the kind's runtime gets it (KindRuntime's desired value), after loading,
 * validation and the kind's `build` (./build.ts). The kind's schema (./schema.ts) is the truth
 * about the file; these types mirror it.
 */
import type { GivenFields } from '../../rules/dns/fields.js';

export interface DesiredDns {
  /** delete live records the file does not name (default true) */
  purge?: boolean;
  ignore?: { name?: string; type?: string; content?: string }[];
  records: DesiredRecord[];
}

/** A record of the file; the shared fields (`comment`, `tags`, `settings`) are the record model's. */
export interface DesiredRecord extends GivenFields {
  name: string;
  type: string;
  content?: string;
  data?: Record<string, unknown>;
  /** 1 = Auto; 'auto' in the file is loaded as 1; omitted is Auto */
  ttl?: number;
  proxied?: boolean;
  priority?: number;
  /**
   * The name the live record has now (./renames.ts): the record is renamed in place. The file's
   * only, never sent: the record body is built from the record model's fields (src/rules/dns/body.ts).
   */
  renamed_from?: string;
  path: string;
}
