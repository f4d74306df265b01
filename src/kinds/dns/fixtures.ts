/**
 * A zone's records in a fixtures export (`zones[].records`), each with its server id so a served
 * copy gives the same step keys (updates and deletes are keyed by record id). Only the records
 * `read` keeps are written: the ones the service manages itself are dropped there and never reach
 * a plan, so leaving them out does not change one.
 */
import type { KindFixtures } from '../../core/kind.js';
import type { DnsLive } from './read.js';

export const dnsFixtures: KindFixtures = {
  entry(live) {
    const records = (live as DnsLive).records.map((r) => {
      const out: Record<string, unknown> = { id: r.id, name: r.name, type: r.type };
      if (r.data !== undefined) out.data = r.data;
      else out.content = r.content ?? '';
      out.ttl = r.ttl;
      out.proxied = r.proxied;
      if (r.priority !== undefined) out.priority = r.priority;
      if (r.comment) out.comment = r.comment;
      if (r.tags && r.tags.length > 0) out.tags = r.tags;
      if (r.settings !== undefined) out.settings = r.settings;
      return out;
    });
    return { fields: { records } };
  },
};
