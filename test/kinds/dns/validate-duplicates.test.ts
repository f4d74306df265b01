/**
 * The validator's duplicate rule uses the planner's normalisation (src/kinds/dns/normalize.ts):
 * two records the planner sees as one value would be planned as two identical creates, the API
 * refuses the second (81058), and apply never converges.
 */
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../../src/config/check-value.js';

const errorsOf = (records: Record<string, unknown>[]) =>
  checkDocument({ version: 1, zones: [{ name: 'dup.example', dns: { records } }] })
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.path}: ${p.message}`);

const apex = { name: '@', type: 'A', content: '192.0.2.1' };

describe('dns duplicate records', () => {
  it('counts a quoted and a bare TXT with the same text as one value', () => {
    expect(
      errorsOf([
        apex,
        { name: 'q', type: 'TXT', content: 'quoted' },
        { name: 'q', type: 'TXT', content: '"quoted"' },
      ]),
    ).toEqual([
      'zones[0].dns.records[2]: duplicate record: records[1] already has this name, type and value',
    ]);
  });

  it('counts host names that differ only in case and final dot as one value', () => {
    expect(
      errorsOf([
        apex,
        { name: 'w', type: 'CNAME', content: 'Target.example.net.' },
        { name: 'W', type: 'CNAME', content: 'target.example.net' },
      ]),
    ).toEqual([
      'zones[0].dns.records[2]: duplicate record: records[1] already has this name, type and value',
    ]);
  });

  it('finds the conflicts of a name written two ways (one record plain, one not) and names it in full', () => {
    expect(
      errorsOf([
        apex,
        { name: 'www', type: 'A', content: '192.0.2.2' },
        { name: 'WWW.dup.example.', type: 'CNAME', content: 'target.example.net' },
        { name: '@', type: 'TXT', content: 'apex' },
        { name: 'dup.example.', type: 'TXT', content: '"apex"' },
      ]),
    ).toEqual([
      'zones[0].dns.records[2]: a CNAME must be the only record at its name, and records[1] (A) is also at www.dup.example',
      'zones[0].dns.records[4]: duplicate record: records[3] already has this name, type and value',
    ]);
  });

  it('keeps texts the planner tells apart', () => {
    expect(
      errorsOf([
        apex,
        { name: 'q', type: 'TXT', content: 'quoted' },
        { name: 'q', type: 'TXT', content: '"quoted" "twice"' },
        { name: 'q', type: 'TXT', content: 'Quoted' },
        {
          name: '_sip._tcp',
          type: 'SRV',
          data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.net' },
        },
        {
          name: '_sip._tcp',
          type: 'SRV',
          data: { priority: 20, weight: 5, port: 5060, target: 'sip.example.net' },
        },
      ]),
    ).toEqual([]);
  });
});
