// A plan a reviewer can judge from the pull request alone: a create shows every field it will send
// (secrets masked), an update every changed field, long values are whole (wrapped in text, never
// cut), and the Markdown plan fits in one GitHub comment by summarising its largest groups.
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/core/plan.js';
import { MARKDOWN_LIMIT, renderMarkdown } from '../../src/core/render-markdown.js';
import { renderText } from '../../src/core/render-text.js';
import type { Step } from '../../src/core/runtime.js';

const example = (name: string) => new URL(`../../examples/${name}`, import.meta.url).pathname;
const env = { LOGPUSH_S3_CHALLENGE: 'b3duZXJzaGlwLWNoYWxsZW5nZQ', LOGPUSH_HTTP_TOKEN: 'c0llect0r-t0ken' };

describe('reviewable plans through the CLI', () => {
  it('a CSP policy create shows its action, expression and value; a Logpush job its dataset, destination and filter', async () => {
    const { fixtures, harness } = await import('../kinds/page-shield/helpers.js');
    const h = await harness(fixtures([{ name: 'shop.example' }, { name: 'logs.example' }]));
    try {
      const ps = await h.cli(['plan', example('page-shield.yaml'), '--format', 'markdown']);
      expect(ps.stdout).toContain(
        `value: "script-src 'self' https://js.payments.example; connect-src 'self' https://api.payments.example"`,
      );
      expect(ps.stdout).toMatch(/action: "(log|allow)"/);
      expect(ps.stdout).toMatch(/expression: "/);
      const text = await h.cli(['plan', example('page-shield.yaml')]);
      expect(text.stdout).toContain('value: "script-src');

      const lp = await h.cli(['plan', example('logpush.yaml'), '--format', 'markdown'], env);
      expect(lp.stdout).toMatch(/dataset: "http_requests"/);
      expect(lp.stdout).toMatch(/filter\.where\.and: \[/);
      expect(lp.stdout).toMatch(/destination/);
      for (const secret of Object.values(env)) expect(lp.stdout + lp.stderr).not.toContain(secret);
    } finally {
      await h.close();
    }
  });

  it('a 600-character TXT record is shown in full, in text (wrapped) and in Markdown', async () => {
    const { fixtures, harness } = await import('../kinds/page-shield/helpers.js');
    const h = await harness(fixtures([{ name: 'long.example' }]));
    const long = Array.from({ length: 61 }, (_, i) => `word${String(i).padStart(5, '0')}`).join(' ');
    expect(long.length).toBeGreaterThanOrEqual(600);
    try {
      const file = h.file(
        'long.yaml',
        [
          'version: 1',
          'zones:',
          '  - name: long.example',
          '    account: 0123456789abcdef0123456789abcdef',
          '    dns:',
          '      records:',
          '        - { name: "@", type: A, content: 192.0.2.1 }',
          `        - { name: note, type: TXT, content: "${long}" }`,
        ].join('\n'),
      );
      const md = await h.cli(['plan', file, '--format', 'markdown']);
      expect(md.stdout).toContain(long);
      const text = await h.cli(['plan', file]);
      // every word is there, in order, across the wrapped lines
      const joined = text.stdout.replace(/\n\s+/g, ' ');
      expect(joined).toContain(long);
      expect(Math.max(...text.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(160);
    } finally {
      await h.close();
    }
  });
});

function dnsSteps(owner: string, n: number): Step[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${owner}/dns/create:${i}`,
    kind: 'dns',
    owner: { scope: 'zone', name: owner },
    key: `create:${i}`,
    action: 'create',
    address: `h${i} TXT some value number ${i}`,
    before: null,
    after: { name: `h${i}.${owner}`, type: 'TXT', content: `some value number ${i}`, ttl: 1, proxied: false },
    changes: [
      { path: 'content', before: undefined, after: `some value number ${i}` },
      { path: 'ttl', before: undefined, after: 1 },
    ],
    irreversible: false,
    dependsOn: [],
    summary: '',
    fingerprint: '',
  })) as unknown as Step[];
}

describe('the Markdown plan and the comment limit', () => {
  it('summarises the largest groups, with their counts, to stay under 65,536 characters', () => {
    const steps = [...dnsSteps('big.example', 4000), ...dnsSteps('small.example', 3)];
    const plan = { steps, guards: [], calls: 2, owners: [] } as unknown as Plan;
    const md = renderMarkdown(plan, 'local');
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(md).toContain('4,000 steps');
    expect(md).toContain('+ 4,000 to create: see the JSON plan');
    // the small zone keeps its rows
    expect(md).toContain('`h2 TXT some value number 2`');
    expect(md).toMatch(/#### zone small\.example[\s\S]*content: "some value number 1"/);
  });

  it('a plan that fits is not summarised, and the text plan shows creates as `field: value`', () => {
    const plan = { steps: dnsSteps('a.example', 3), guards: [], calls: 1, owners: [] } as unknown as Plan;
    expect(renderMarkdown(plan, 'local')).not.toContain('see the JSON plan');
    expect(renderText(plan)).toContain('        content: "some value number 0"');
  });
});
