/**
 * Plans that apply (issue 15): what the API would refuse, known from the live state read at plan
 * time, is a plan error naming the zone and file:line:col, never a failure halfway through apply;
 * and the refusals of every zone are reported together in one run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, cliAt, startBed, writeYaml, zoneFile, zoneRecords, type Bed } from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const apex = "{ name: '@', type: A, content: 192.0.2.1 }";

describe('live conflicts found at plan time', () => {
  it('purge: false, a new CNAME beside a live A and TXT: plan and apply refuse before any write', async () => {
    bed = await startBed();
    const zone = 'clash.example';
    const first = [apex, '{ name: www, type: A, content: 192.0.2.2 }'];
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(zone, first));
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);

    writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile(zone, [apex, '{ name: www, type: CNAME, content: cdn.example.net }'], 'purge: false'),
    );
    for (const args of [
      ['plan', file],
      ['apply', file, '--auto-approve'],
    ]) {
      const r = await cliAt(bed, args);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stderr).toMatch(
        /zones\.yaml:9:11: zone clash\.example: zones\[0\]\.dns\.records\[1\]: www CNAME cannot be created: the live A record www 192\.0\.2\.2 stays \(purge: false keeps records the file does not name\), and a CNAME must be alone at its name \(the API refuses it with 81053\)/,
      );
      expect(r.stdout).not.toContain('Applied');
    }
    const live = await zoneRecords(bed, zone);
    expect(live.map((r) => `${r.name} ${r.type}`).sort()).toEqual(['clash.example A', 'www.clash.example A']);
  });

  it('with purge the A is deleted first and the CNAME applies', async () => {
    bed = await startBed();
    const zone = 'purged.example';
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile(zone, [apex, '{ name: www, type: A, content: 192.0.2.2 }']),
    );
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile(zone, [apex, '{ name: www, type: CNAME, content: cdn.example.net }']),
    );
    const r = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
  });

  it('a file with refusals in three zones reports all three in one run', async () => {
    bed = await startBed();
    const zones = ['one.example', 'two.example', 'three.example'];
    const entry = (zone: string, records: string[], extra = '') =>
      zoneFile(zone, records, extra).split('\n').slice(2).join('\n');
    const write = (records: (z: string) => string[], extra = '') =>
      writeYaml(
        bed!.dir,
        'zones.yaml',
        ['version: 1', 'zones:', ...zones.map((z) => entry(z, records(z), extra))].join('\n') + '\n',
      );
    const file = write(() => [apex, "{ name: mail, type: TXT, content: 'v=spf1 -all' }"]);
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    write(() => [apex, '{ name: mail, type: CNAME, content: mx.example.net }'], 'purge: false');
    const r = await cliAt(bed, ['plan', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('3 problems stop this plan; nothing was changed');
    for (const z of zones) {
      expect(r.stderr).toMatch(
        new RegExp(
          `zones\\.yaml:\\d+:\\d+: zone ${z.replace('.', '\\.')}: .*mail CNAME cannot be created: the live TXT record`,
        ),
      );
    }
  });

  it('gates of different kinds in three zones and an account: all in one run, each with owner and place', async () => {
    bed = await startBed({
      fixtures: {
        accounts: [
          {
            id: ACCOUNT,
            name: 'gates',
            pools: [{ name: 'eu-primary', notification_email: 'ops@example.com,noc@example.com' }],
          },
        ],
        zones: [
          {
            name: 'ps.example',
            account: ACCOUNT,
            plan: 'business',
            page_shield: {
              enabled: true,
              scripts: [{ url: 'https://evil.example.org/skimmer.js', js_integrity_score: 4 }],
            },
          },
          {
            name: 'waf.example',
            account: ACCOUNT,
            plan: 'enterprise',
            waf: {
              overrides: [
                {
                  urls: ['waf.example/admin/*'],
                  rules: { '100000000000000000000000000000a1': 'disable' },
                  description: 'admin pages are noisy',
                },
              ],
            },
          },
          {
            name: 'dns.example',
            account: ACCOUNT,
            records: [{ name: 'www', type: 'A', content: '192.0.2.2' }],
          },
        ],
      },
    });
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      [
        'version: 1',
        'accounts:',
        `  - id: ${ACCOUNT}`,
        '    load_balancing:',
        '      legacy_pool_emails: remove',
        '      notifications:',
        '        - name: pool health',
        '          alert_type: load_balancing_health_alert',
        '          pools: all',
        '          new_health: [Unhealthy, Healthy]',
        '          event_source: [pool, origin]',
        '          email: [ops@example.com]',
        'zones:',
        '  - name: ps.example',
        `    account: ${ACCOUNT}`,
        '    page_shield: { enabled: true, max_malicious_scripts: 0 }',
        '  - name: waf.example',
        `    account: ${ACCOUNT}`,
        '    waf: { managed_rules: new, migration: { mode: validation } }',
        '  - name: dns.example',
        `    account: ${ACCOUNT}`,
        '    dns:',
        '      purge: false',
        '      records:',
        '        - { name: www, type: CNAME, content: cdn.example.net }',
        '',
      ].join('\n'),
    );
    for (const args of [
      ['plan', file],
      ['apply', file, '--auto-approve'],
    ]) {
      const r = await cliAt(bed, args);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).not.toContain('Applied');
      expect(r.stderr).toContain('4 problems stop this plan; nothing was changed');
      const lines = r.stderr.split('\n');
      const has = (owner: string, what: string) =>
        lines.some((l) => l.includes(owner) && l.includes(what) && /zones\.yaml:\d+:\d+: /.test(l));
      expect(has(`account ${ACCOUNT}`, 'legacy_pool_emails: remove would lose recipients'), r.stderr).toBe(
        true,
      );
      expect(has('zone ps.example', 'more than max_malicious_scripts 0'), r.stderr).toBe(true);
      expect(has('zone waf.example', 'the WAF migration cannot be planned'), r.stderr).toBe(true);
      expect(has('zone dns.example', 'www CNAME cannot be created'), r.stderr).toBe(true);
    }
    expect((await zoneRecords(bed, 'dns.example')).map((r) => r.type)).toEqual(['A']);
  });
});
