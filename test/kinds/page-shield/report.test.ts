import { describe, expect, it } from 'vitest';
import { buildReport } from '../../../src/kinds/page-shield/report.js';
import { renderReport } from '../../../src/kinds/page-shield/report-render.js';
import type { DetectedScript } from '../../../src/kinds/page-shield/scripts.js';

const script = (
  id: string,
  score: number | undefined,
  over: Partial<DetectedScript> = {},
): DetectedScript => ({
  id,
  url: `https://${id}.example.net/app.js`,
  status: 'active',
  js_integrity_score: score,
  first_page_url: 'https://example.com/',
  ...over,
});

const report = buildReport({
  zone: { id: 'f'.repeat(32), name: 'example.com' },
  statuses: ['active', 'infrequent'],
  scripts: [
    script('clean-b', 50),
    script('unknown-a', undefined),
    script('bad-2', 8, { status: 'infrequent' }),
    script('clean-a', 10, { url_reported_malicious: true, malicious_url_categories: ['Malware'] }),
    script('bad-1', 2, { domain_reported_malicious: true }),
    script('bad-1', 2, { domain_reported_malicious: true }),
  ],
  connections: [
    { id: 'c1', url: 'https://a.example.org/collect', status: 'active' },
    {
      id: 'c2',
      url: 'https://z.example.org/beacon',
      status: 'active',
      domain_reported_malicious: true,
      malicious_domain_categories: ['Phishing'],
    },
  ],
  cookies: [
    { id: 'k2', name: 'session', host: 'example.com', secure_attribute: true, http_only_attribute: true },
    { id: 'k1', name: '_ga', host: 'example.com', secure_attribute: false },
  ],
});

describe('page shield report', () => {
  it('lists malicious scripts first (lowest score first), then clean, then unknown apart', () => {
    expect(report.scripts.malicious.map((s) => s.id)).toEqual(['bad-1', 'bad-2']);
    expect(report.scripts.clean.map((s) => s.id)).toEqual(['clean-a', 'clean-b']);
    expect(report.scripts.unknown.map((s) => s.id)).toEqual(['unknown-a']);
    expect(report.summary).toMatchObject({
      scripts: 5,
      malicious_scripts: 2,
      clean_scripts: 2,
      unknown_scripts: 1,
      reported_malicious_scripts: 2,
      connections: 2,
      reported_malicious_connections: 1,
      cookies: 2,
    });
  });

  it('keeps reported-malicious URLs and domains as their own column, apart from the score', () => {
    expect(report.scripts.clean[0]).toMatchObject({
      reported_malicious: ['url'],
      malicious_categories: ['Malware'],
    });
    expect(report.scripts.malicious[0].reported_malicious).toEqual(['domain']);
    expect(report.connections.map((c) => c.id)).toEqual(['c2', 'c1']);
  });

  it('renders text with the columns and sections in that order', () => {
    const text = renderReport(report, 'text');
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      `Page Shield report for example.com (${'f'.repeat(32)}), status active, infrequent`,
    );
    const order = [
      'Malicious scripts',
      'Other scripts',
      'Scripts without a score',
      'Connections',
      'Cookies',
    ].map((t) => lines.findIndex((l) => l.startsWith(t)));
    expect(order.every((i, n) => i > 0 && (n === 0 || i > order[n - 1]))).toBe(true);
    expect(text).toMatch(/SCORE\s+STATUS\s+REPORTED MALICIOUS\s+URL\s+FIRST PAGE\s+LAST SEEN/);
    expect(text).toMatch(/2\s+active\s+domain\s+https:\/\/bad-1\.example\.net\/app\.js/);
    expect(text).toMatch(/10\s+active\s+url \(Malware\)\s+https:\/\/clean-a/);
    expect(text).toMatch(/\?\s+active\s+-\s+https:\/\/unknown-a/);
    expect(text.indexOf('bad-1')).toBeLessThan(text.indexOf('bad-2'));
  });

  it('renders markdown tables and stable json', () => {
    const md = renderReport(report, 'markdown');
    expect(md).toContain('| SCORE | STATUS | REPORTED MALICIOUS | URL | FIRST PAGE | LAST SEEN |');
    expect(md).toContain('### Scripts without a score (unknown, not counted as malicious): 1');
    const json = JSON.parse(renderReport(report, 'json'));
    expect(Object.keys(json)).toEqual(['zone', 'statuses', 'summary', 'scripts', 'connections', 'cookies']);
    expect(json.scripts.unknown[0].js_integrity_score).toBeNull();
  });
});
