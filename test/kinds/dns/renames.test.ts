/**
 * planDns with `renamed_from` (src/kinds/dns/renames.ts) on tables of desired and live records: a
 * renamed record is one PATCH of its live record (its id kept), chosen by value within a set, by
 * being alone otherwise; the refusals and the warning. No I/O.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredRecord } from '../../../src/kinds/dns/desired.js';
import { normLive } from '../../../src/kinds/dns/normalize.js';
import { planDns, type DnsStepData } from '../../../src/kinds/dns/plan.js';

const ZONE = 'example.com';
let n = 0;
const rec = (r: Partial<DesiredRecord> & { name: string; type: string }): DesiredRecord => ({
  path: `zones[0].dns.records[${n++}]`,
  ...r,
});
const live = (id: string, name: string, content: string, type = 'A') =>
  normLive(
    { id, name: `${name}.${ZONE}`, type, content, ttl: 1, proxied: false, comment: null, tags: [], meta: {} },
    ZONE,
  );

function plan(records: DesiredRecord[], liveRecords: ReturnType<typeof live>[]) {
  const warnings: string[] = [];
  const drafts = planDns({
    zone: ZONE,
    desired: { records },
    live: liveRecords,
    warn: (m) => warnings.push(m),
  });
  return { drafts, warnings };
}

describe('renamed_from on DNS records', () => {
  it('renames a lone record and changes its value in the same PATCH', () => {
    const { drafts, warnings } = plan(
      [rec({ name: 'new', type: 'A', content: '192.0.2.2', renamed_from: 'old' })],
      [live('r1', 'old', '192.0.2.1')],
    );
    expect(warnings).toEqual([]);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({
      key: 'r1',
      action: 'update',
      liveId: 'r1',
      address: 'old -> new A 192.0.2.2',
      rename: { from: 'old', to: 'new' },
    });
    expect((drafts[0]!.data as DnsStepData & { op: 'patch' }).fields).toEqual({
      name: `new.${ZONE}`,
      content: '192.0.2.2',
      type: 'A',
    });
  });

  it('renames the records of a set it names by value, and leaves the rest of the old name to the file', () => {
    const { drafts } = plan(
      [
        rec({ name: 'new', type: 'A', content: '192.0.2.1', renamed_from: 'old' }),
        rec({ name: 'new', type: 'A', content: '192.0.2.2', renamed_from: 'old' }),
      ],
      [live('r1', 'old', '192.0.2.1'), live('r2', 'old', '192.0.2.2'), live('r3', 'old', '192.0.2.3')],
    );
    // the third record of the old set is not in the file: purge deletes it, the two renamed keep their ids
    expect(drafts.map((d) => [d.action, d.key, d.rename?.to])).toEqual([
      ['delete', 'r3', undefined],
      ['update', 'r1', 'new'],
      ['update', 'r2', 'new'],
    ]);
  });

  it('does not take over the lone record of a name the file keeps: that record is the kept one', () => {
    const { drafts, warnings } = plan(
      [
        rec({ name: 'new', type: 'A', content: '192.0.2.2', renamed_from: 'old' }),
        rec({ name: 'old', type: 'A', content: '192.0.2.1' }),
      ],
      [live('r1', 'old', '192.0.2.1')],
    );
    expect(drafts.map((d) => [d.action, d.address])).toEqual([['create', 'new A 192.0.2.2']]);
    expect(warnings).toEqual([
      'record new A 192.0.2.2: renamed_from "old" matches no live A record (already renamed?); it is planned by its new name',
    ]);
  });

  it('warns, and plans by the new name, when renamed_from matches nothing live', () => {
    const { drafts, warnings } = plan(
      [rec({ name: 'new', type: 'A', content: '192.0.2.1', renamed_from: 'old' })],
      [live('r1', 'new', '192.0.2.1')],
    );
    expect(drafts).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it('refuses when the old and the new record both live, and when two records take over one', () => {
    expect(() =>
      plan(
        [rec({ name: 'new', type: 'A', content: '192.0.2.1', renamed_from: 'old' })],
        [live('r1', 'old', '192.0.2.1'), live('r2', 'new', '192.0.2.1')],
      ),
    ).toThrow(/renamed_from "old" \(id r1\) and the new name \(id r2\) both exist live/);
    expect(() =>
      plan(
        [
          rec({ name: 'new', type: 'A', content: '192.0.2.2', renamed_from: 'old' }),
          rec({ name: 'new', type: 'A', content: '192.0.2.3', renamed_from: 'old' }),
        ],
        [live('r1', 'old', '192.0.2.1')],
      ),
    ).toThrow(/takes over live record r1, which zones\[0\]\.dns\.records\[\d+\] takes over too/);
  });
});
