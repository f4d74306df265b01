/**
 * Every problem at once: a record or a Logpush job the schema refused is skipped by the kind's own
 * rules (`validatesPartly`), and the other entries are still checked, so one misspelt key does not
 * hide the rule violations of the rest of the list.
 */
import { describe, expect, it } from 'vitest';
import { lint, pos } from './helpers.js';

describe('schema problems do not hide rule problems', () => {
  it('checks the other records and jobs of a zone where the schema refused one', async () => {
    const src = [
      'version: 1',
      'zones:',
      '  - name: example.com',
      '    account: 0123456789abcdef0123456789abcdef',
      '    dns:',
      '      records:',
      '        - { name: "@", type: A, content: 999.1.1.1 }',
      '        - { name: x, type: A, contnet: 192.0.2.1 }',
      '        - { name: y, type: CNAME, content: x.example.com, proxied: true }',
      '    logpush:',
      '      jobs:',
      '        - { name: a, dataset: http_requests, destination_conf: "https://x.example/a", filter: { bogus: 1 } }',
      '        - { name: b, dataset: nope, destination_conf: "https://x.example/b" }',
      '',
    ].join('\n');
    expect(await lint(src)).toEqual([
      `t.yaml:${pos(src, '999.1.1.1')}: zones[0].dns.records[0].content: Content for A record must be a valid IPv4 address (got "999.1.1.1")`,
      `t.yaml:${pos(src, 'contnet')}: zones[0].dns.records[1].contnet: unknown key \`contnet\`; did you mean \`content\`?`,
      `t.yaml:${pos(src, 'filter:')}: zones[0].logpush.jobs[0].filter: missing required key \`where\``,
      `t.yaml:${pos(src, 'nope')}: zones[0].logpush.jobs[1].dataset: "nope" is not a zone dataset; use one of dns_logs, firewall_events, http_requests, nel_reports, page_shield_events, spectrum_events`,
    ]);
  });

  it('lists schema problems, duplicates and CNAME-chain problems in one run (issue 15)', async () => {
    const src = [
      'version: 1',
      'zones:',
      '  - name: r.example',
      '    account: 0123456789abcdef0123456789abcdef',
      '    dns:',
      '      records:',
      "        - { name: '@', type: A, content: 192.0.2.1 }",
      '        - { name: bad, type: A, content: not-an-ip }',
      '        - { name: dup, type: A, content: 192.0.2.2 }',
      '        - { name: dup, type: A, content: 192.0.2.2 }',
      '        - { name: px, type: CNAME, content: nowhere.r.example, proxied: true }',
      '        - { name: typo, type: A, content: 192.0.2.3, ttll: 5 }',
      // the chain through a refused record is not judged: it would speak of a zone without it
      '        - { name: via, type: CNAME, content: bad.r.example, proxied: true }',
      '',
    ].join('\n');
    const out = await lint(src);
    expect(out).toHaveLength(4);
    expect(out[0]).toContain('zones[0].dns.records[1].content: Content for A record');
    expect(out[1]).toContain('zones[0].dns.records[3]: duplicate record');
    expect(out[2]).toContain(
      `t.yaml:${pos(src, 'nowhere.r.example')}: zones[0].dns.records[4].content: The proxied CNAME px.r.example points to nowhere.r.example`,
    );
    expect(out[3]).toContain('zones[0].dns.records[5].ttll: unknown key');
  });
});
