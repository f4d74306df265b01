/**
 * The dns value of a zone entry as the runtime gets it (./desired.ts): every record with its dotted
 * path, and `ttl: auto` loaded as 1.
 */
import { copyOf, withPath } from '../../config/entry-copy.js';
import { childPath } from '../../config/paths.js';
import type { DesiredDns, DesiredRecord } from './desired.js';

import type { Entry } from '../../rules/shared/values.js';

export function buildDns(raw: Entry, path: string): DesiredDns {
  const listPath = childPath(path, 'records');
  const records = ((raw.records as Entry[] | undefined) ?? []).map((r, i) => {
    const record = withPath<DesiredRecord>(r, childPath(listPath, i));
    if ((r.ttl as unknown) === 'auto') record.ttl = 1;
    return record;
  });
  const dns = copyOf<DesiredDns>(raw);
  dns.records = records;
  return dns;
}
