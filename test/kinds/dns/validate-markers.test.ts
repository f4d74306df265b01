/**
 * A record's comment or tags may not hold an owner's marker (docs/sharing-a-zone.md, "Limits that
 * count the marker"): it would read back as one. The file alone tells, so validation refuses it at
 * the field, with or without `owner` on the entry, as it does for a Page Shield description and a
 * Logpush job name.
 */
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../../src/config/check-value.js';

const errorsOf = (entry: Record<string, unknown>, records: Record<string, unknown>[]) =>
  checkDocument({ version: 1, zones: [{ name: 'shared.example', ...entry, dns: { records } }] })
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.path}: ${p.message}`);

const HELD =
  'holds a "zoneplan-owner" marker, which zoneplan writes itself for the entry\'s owner ' +
  '(docs/sharing-a-zone.md); remove it and set owner: on the entry instead';

describe('dns: user text that holds an owner marker', () => {
  for (const entry of [{ owner: 'blog' }, {}]) {
    it(`is refused at the comment and at the tags${entry.owner ? ' (owner: blog)' : ' (no owner)'}`, () => {
      expect(
        errorsOf(entry, [
          { name: 'a', type: 'A', content: '192.0.2.1', comment: 'hi [zoneplan-owner:other]' },
          { name: 'b', type: 'A', content: '192.0.2.2', tags: ['team:web', 'Zoneplan-Owner:other'] },
          { name: 'c', type: 'TXT', content: 'x', comment: 'fine', tags: ['owner:blog'] },
        ]),
      ).toEqual([`zones[0].dns.records[0].comment: ${HELD}`, `zones[0].dns.records[1].tags: ${HELD}`]);
    });
  }
});
