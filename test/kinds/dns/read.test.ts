/**
 * The DNS read normalises each answered page once: the plan's own read of an answer the early
 * reads already read (src/cli/pipeline/early-reads.ts serves the same answer to both) takes the records
 * normalised then, and a new answer is normalised anew.
 */
import { expect, it } from 'vitest';
import type { ApiResponse } from '../../../src/client/types.js';
import type { Requester } from '../../../src/core/runtime.js';
import { normLive } from '../../../src/kinds/dns/normalize.js';
import { readDnsRecords } from '../../../src/kinds/dns/read.js';

const ZONE = 'example.com';
const raw = () => [
  { id: 'a1', name: 'WWW.example.com.', type: 'A', content: '192.0.2.01', ttl: 300, proxied: false },
  { id: 'a2', name: 'example.com', type: 'NS', content: 'ns1.example.net', ttl: 300, proxied: false },
  { id: 'a3', name: 'v6.example.com', type: 'AAAA', content: '2001:DB8::1', ttl: 1, proxied: true },
];

/** A requester that answers every list with `answer()` (one page). */
function answering(answer: () => ApiResponse<unknown>): Requester {
  return { request: <T>() => Promise.resolve(answer() as ApiResponse<T>) };
}
const page = (result: unknown[]): ApiResponse<unknown> => ({
  status: 200,
  result,
  resultInfo: { page: 1, per_page: 5_000_000, total_pages: 1 },
  messages: [],
});

it('normalises an answer once, whoever reads it, and a new answer anew', async () => {
  const shared = page(raw());
  const first = await readDnsRecords(
    answering(() => shared),
    'z',
    ZONE,
  );
  const second = await readDnsRecords(
    answering(() => shared),
    'z',
    ZONE,
  );
  // the records as normLive gives them, the apex NS set aside as the service's own
  expect(first.records).toEqual(
    raw()
      .filter((r) => r.type !== 'NS')
      .map((r) => normLive(r, ZONE)),
  );
  expect(first.serviceManaged.map((s) => s.record.id)).toEqual(['a2']);
  // the same answer: the same records (not normalised again), in lists of each read's own
  expect(second.records).not.toBe(first.records);
  expect(second.records.every((r, i) => r === first.records[i])).toBe(true);
  // another answer (a later read) is normalised on its own
  const third = await readDnsRecords(
    answering(() => page(raw())),
    'z',
    ZONE,
  );
  expect(third.records).toEqual(first.records);
  expect(third.records[0]).not.toBe(first.records[0]);
  // the same answer read for another zone name is normalised for that zone
  const other = await readDnsRecords(
    answering(() => shared),
    'z',
    'example.net',
  );
  expect(other.records[0]).not.toBe(first.records[0]);
});
