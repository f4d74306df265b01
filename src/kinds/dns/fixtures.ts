/**
 * A zone's records in a fixtures export (`zones[].records`), each with its server id so a served
 * copy gives the same step keys (updates and deletes are keyed by record id). The records the
 * service manages itself are written too, with their `locked` flag and `meta`: the local API keeps
 * them as the service's (it refuses to change them, and a CNAME beside them), and `read` sets them
 * aside again, so they change no plan of the copy while its apply meets the same refusals.
 */
import type { KindFixtures } from '../../core/kind.js';
import { MANAGED_FIELDS } from '../../rules/dns/index.js';
import { fixtureForm } from './field-forms.js';
import type { LiveRecord } from './normalize.js';
import type { DnsLive } from './read.js';

function recordFixture(r: LiveRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { id: r.id, name: r.name, type: r.type };
  if (r.data !== undefined) out.data = r.data;
  else out.content = r.content ?? '';
  out.ttl = r.ttl;
  out.proxied = r.proxied;
  if (r.priority !== undefined) out.priority = r.priority;
  const fields = r as unknown as Record<string, unknown>;
  for (const field of MANAGED_FIELDS) {
    const value = fixtureForm(field, fields[field.name]);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

export const dnsFixtures: KindFixtures = {
  entry(raw) {
    const live = raw as DnsLive;
    const records = live.records.map(recordFixture);
    for (const s of live.serviceManaged) {
      const out = recordFixture(s.record);
      if (s.content !== undefined) out.content = s.content;
      if (s.locked) out.locked = true;
      if (s.meta) out.meta = s.meta;
      records.push(out);
    }
    return { fields: { records } };
  },
};
