/**
 * Reads a zone's DNS records in as few requests as the API allows: one list with the largest
 * per_page it accepts (5,000,000 on the real API), following result_info only if the server caps
 * the page. Records the service manages itself are dropped here, so nothing downstream sees them.
 */
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
  for (let page = 1; ; page++) {
    const pending = client.request<Record<string, unknown>[]>('GET', `/zones/${zoneId}/dns_records`, {
      query: { per_page: DNS_PER_PAGE, page },
    });
    if (page === 1 && whileWaiting) {
      pending.catch(() => {}); // awaited below; this only keeps an early failure from being unhandled
      await new Promise((resolve) => setImmediate(resolve)); // let the request go out first
      whileWaiting();
    }
    const res = await pending;
    const rows = Array.isArray(res.result) ? res.result : [];
    for (const raw of rows) {
      if (isServiceManaged(raw, zoneName)) serviceManaged++;
      else records.push(normLive(raw, zoneName));
    }
    const info = res.resultInfo;
    const totalPages = info?.total_pages ?? 1;
    if (rows.length === 0 || page >= totalPages) break;
  }
  return { records, serviceManaged };
}
