/**
 * Reads a zone's DNS records in as few requests as the API allows: one list with the largest
 * per_page it accepts (5,000,000 on the real API), following result_info only if the server caps
 * the page. Records the service manages itself are set aside here, in a list the planner never
 * looks at: no plan sees them, but a fixtures copy of the zone (`export --as fixtures`, the sandbox
 * of `plan --rehearse`) holds them, because the API still refuses what conflicts with them.
 */
import { listPages } from '../../core/list.js';
import type { Requester } from '../../core/runtime.js';
import { isServiceManaged, normLive, type LiveRecord } from './normalize.js';
import { isObject } from '../../rules/shared/values.js';

export const DNS_PER_PAGE = 5_000_000;

/** A record the service manages itself, with the marks the API gives it. */
export interface ServiceManagedRecord {
  record: LiveRecord;
  /** `content` exactly as the API gave it (the record's own value, not the planner's normal form) */
  content?: string;
  /** the API's `locked` flag, when set */
  locked?: true;
  /** the API's `meta` (auto_added, managed_by_apps, managed_by_argo_tunnel, source), when present */
  meta?: Record<string, boolean | string>;
}

export interface DnsLive {
  records: LiveRecord[];
  /** the records the service manages itself: kept out of every plan, written to fixtures */
  serviceManaged: ServiceManagedRecord[];
}

/** The API's marks of a service-managed record, only the parts the fixtures loader takes. */
function serviceManagedOf(raw: Record<string, unknown>, zoneName: string): ServiceManagedRecord {
  const out: ServiceManagedRecord = { record: normLive(raw, zoneName) };
  if (out.record.data === undefined && typeof raw.content === 'string') out.content = raw.content;
  if (raw.locked === true) out.locked = true;
  if (isObject(raw.meta)) {
    const meta: Record<string, boolean | string> = {};
    for (const [k, v] of Object.entries(raw.meta)) {
      if (typeof v === 'boolean' || typeof v === 'string') meta[k] = v;
    }
    if (Object.keys(meta).length > 0) out.meta = meta;
  }
  return out;
}

/** A page of records normalised, for the zone it was normalised for. */
interface NormalisedPage {
  zoneName: string;
  records: LiveRecord[];
  serviceManaged: ServiceManagedRecord[];
}

/**
 * Pages already normalised, by the very list the API answered. The early reads
 * (src/cli/pipeline/early-reads.ts) read a zone's records while the file is checked, and the plan's own read then
 * takes the same answer: it takes the same normalised records too, instead of normalising 10,000
 * records a second time. Kept only while the answer itself is (a new answer is a new list).
 */
const normalisedPages = new WeakMap<object, NormalisedPage>();

function normalisePage(items: Record<string, unknown>[], zoneName: string): NormalisedPage {
  const known = normalisedPages.get(items);
  if (known && known.zoneName === zoneName) return known;
  const page: NormalisedPage = { zoneName, records: [], serviceManaged: [] };
  // (an indexed loop: it runs once per record, and for...of walks an iterator until V8 optimises it)
  for (let i = 0; i < items.length; i++) {
    const raw = items[i]!;
    if (isServiceManaged(raw, zoneName)) page.serviceManaged.push(serviceManagedOf(raw, zoneName));
    else page.records.push(normLive(raw, zoneName));
  }
  normalisedPages.set(items, page);
  return page;
}

/**
 * `whileWaiting` runs once, after the first request is on its way and before its answer is read:
 * the planner indexes the file's side there, so that work overlaps the server's.
 */
export async function readDnsRecords(
  client: Requester,
  zoneId: string,
  zoneName: string,
  whileWaiting?: () => void,
): Promise<DnsLive> {
  const pages = listPages(client, `/zones/${zoneId}/dns_records`, { perPage: DNS_PER_PAGE, whileWaiting });
  const records: LiveRecord[] = [];
  const serviceManaged: ServiceManagedRecord[] = [];
  for await (const { items } of pages) {
    // normalised page by page: a capped server's later pages are not all held raw at once
    const page = normalisePage(items, zoneName);
    for (let i = 0; i < page.records.length; i++) records.push(page.records[i]!);
    for (let i = 0; i < page.serviceManaged.length; i++) serviceManaged.push(page.serviceManaged[i]!);
  }
  return { records, serviceManaged };
}
