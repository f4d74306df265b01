/**
 * The dns value of a zone entry as the runtime gets it (./desired.ts): every record with its dotted
 * path, and `ttl: auto` loaded as 1.
 */
import { copyOf } from '../../config/entry-copy.js';
import { childPath } from '../../config/paths.js';
import type { DesiredDns, DesiredRecord } from './desired.js';

import type { Entry } from '../../rules/shared/values.js';

export function buildDns(raw: Entry, path: string): DesiredDns {
  const listPath = childPath(path, 'records');
  const list = (raw.records as Entry[] | undefined) ?? [];
  // The checked records themselves, each given its path (a record has no `path` key of its own:
  // the schema refuses unknown keys): a copy of each of 10,000 records was a good part of building
  // a large zone, and the checked document has no other use. A record met a second time (one YAML
  // alias under two entries) already has a path and is copied, so each place keeps its own.
  const records: DesiredRecord[] = new Array<DesiredRecord>(list.length);
  for (let i = 0; i < list.length; i++) {
    const record = list[i]!.path === undefined ? list[i]! : copyOf<Entry>(list[i]!);
    record.path = childPath(listPath, i);
    if (record.ttl === 'auto') record.ttl = 1;
    records[i] = record as unknown as DesiredRecord;
  }
  const dns = copyOf<DesiredDns>(raw);
  dns.records = records;
  return dns;
}
