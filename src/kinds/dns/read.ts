/**
 * Reads a zone's DNS records in as few requests as the API allows: one list with the largest
 * per_page it accepts (5,000,000 on the real API), following result_info only if the server caps
 * the page. Records the service manages itself are dropped here, so nothing downstream sees them.
 */
import { listPages } from '../../core/list.js';
import type { Requester } from '../../core/runtime.js';
import { isServiceManaged, normLive, type LiveRecord } from './normalize.js';

export const DNS_PER_PAGE = 5_000_000;

export interface DnsLive {
  records: LiveRecord[];
  /** how many records the service manages itself (kept out of every plan) */
  serviceManaged: number;
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
  const records: LiveRecord[] = [];
  let serviceManaged = 0;
  const pages = listPages(client, `/zones/${zoneId}/dns_records`, { perPage: DNS_PER_PAGE, whileWaiting });
  for await (const { items } of pages) {
    // normalised page by page: a capped server's later pages are not all held raw at once
    for (const raw of items) {
      if (isServiceManaged(raw, zoneName)) serviceManaged++;
      else records.push(normLive(raw, zoneName));
    }
  }
  return { records, serviceManaged };
}
