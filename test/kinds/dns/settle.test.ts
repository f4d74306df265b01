/**
 * The zone's records after batches, from the records read before and the batches' answers
 * (src/kinds/dns/settle.ts): what lets the read-back after apply skip a second DNS list, and when it
 * must not.
 */
import { describe, expect, it } from 'vitest';
import { normLive } from '../../../src/kinds/dns/normalize.js';
import type { DnsLive } from '../../../src/kinds/dns/read.js';
import { LiveAfterBatches } from '../../../src/kinds/dns/settle.js';

const ZONE = 'example.com';
const raw = (id: string, name: string, content: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  type: 'A',
  content,
  ttl: 1,
  proxied: false,
  ...extra,
});
const before: DnsLive = {
  records: [raw('a1', 'a.example.com', '192.0.2.1'), raw('b1', 'b.example.com', '192.0.2.2')].map((r) =>
    normLive(r, ZONE),
  ),
  serviceManaged: [],
};

describe('LiveAfterBatches', () => {
  it('applies deletes, patches and posts of each answer to the records read before', () => {
    const after = LiveAfterBatches.from(before, ZONE)!;
    after.add({ deletes: [raw('a1', 'a.example.com', '192.0.2.1')], patches: [], puts: [], posts: [] });
    after.add({
      patches: [raw('b1', 'b.example.com', '192.0.2.9')],
      posts: [raw('c1', 'c.example.com', '192.0.2.3')],
    });
    expect(after.value()?.records.map((r) => [r.id, r.name, r.content])).toEqual([
      ['b1', 'b.example.com', '192.0.2.9'],
      ['c1', 'c.example.com', '192.0.2.3'],
    ]);
  });

  it('settles nothing when an answer does not say what it wrote, or names a service-managed record', () => {
    const empty = LiveAfterBatches.from(before, ZONE)!;
    empty.add(null);
    expect(empty.value()).toBeUndefined();
    const noIds = LiveAfterBatches.from(before, ZONE)!;
    noIds.add({ posts: [{ name: 'c.example.com', type: 'A', content: '192.0.2.3' }] });
    expect(noIds.value()).toBeUndefined();
    const managed = LiveAfterBatches.from(before, ZONE)!;
    managed.add({ posts: [raw('c1', 'c.example.com', '192.0.2.3', { meta: { auto_added: true } })] });
    expect(managed.value()).toBeUndefined();
    const singly = LiveAfterBatches.from(before, ZONE)!;
    singly.unknown();
    expect(singly.value()).toBeUndefined();
  });

  it('needs the records read before (a zone created in the same run has none)', () => {
    expect(LiveAfterBatches.from(undefined, ZONE)).toBeUndefined();
  });
});
