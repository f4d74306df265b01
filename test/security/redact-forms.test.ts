/**
 * The redactor finds a secret in every form a renderer gives it, and masks secrets that overlap as
 * one range, so masking one never leaves part of another in clear (src/redact.ts,
 * src/redact-forms.ts). The CLI's outputs are covered end to end by ./secrets.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clearSecrets, redact, redactAroundSteps, redactForStep, registerSecret } from '../../src/redact.js';

afterEach(() => clearSecrets());

const QUOTED = 'Secret"With"Quote42\\Back';
const json = (v: string) => JSON.stringify(v).slice(1, -1);

describe('redaction of every rendered form', () => {
  it('masks the value JSON-escaped once and twice, YAML-quoted, lower-cased, URL-encoded', () => {
    registerSecret(QUOTED, '(from env Q)');
    const texts = [
      `content: "${json(QUOTED)}"`, // a text plan's value
      JSON.stringify({ id: `create www TXT "${json(QUOTED)}"` }), // a journal line holding a step id
      `content: '${QUOTED.replace(/'/g, "''")}'`,
      `name: ${QUOTED.toLowerCase()}.example.com`,
      `https://collector.example/?k=${encodeURIComponent(QUOTED)}`,
      `| \`+\` create | dns | ${json(QUOTED).replace(/\|/g, '\\|')} |`,
    ];
    for (const text of texts) {
      const out = redact(text);
      expect(out, text).toContain('(from env Q)');
      expect(out.toLowerCase(), text).not.toContain('quote42');
    }
  });

  it('masks a value split across lines, by a wrapping renderer or by its own line breaks', () => {
    const long = 'Long-SECRET-value-that-a-renderer-wraps-at-its-width-0123456789';
    const lines = 'First-line-SECRET\nSecond-line-SECRET';
    registerSecret(long, '(from env L)');
    registerSecret(lines, '(from env M)');
    const wrapped = `content: "${long.slice(0, 30)}\n          ${long.slice(30)}"`;
    expect(redact(wrapped)).toBe('content: "(from env L)"');
    const indented = `content: |\n  First-line-SECRET\n  Second-line-SECRET\nnext: 1`;
    expect(redact(indented)).not.toMatch(/line-SECRET/);
    expect(redact(indented)).toContain('next: 1');
  });

  it('masks overlapping secrets as one range: none is left partly in clear', () => {
    const a = 'secret-one-XYZW12';
    const b = 'XYZW12-secret-two-longer';
    registerSecret(a, '[A]');
    registerSecret(b, '[B]');
    expect(redact(`x ${a}-secret-two-longer y`)).toBe('x [A][B] y');
    expect(redact(`x secret-one-${b} y`)).toBe('x [A][B] y');
    // one inside another: the longer one's label, whatever the order they were registered in
    registerSecret('secret-one-XYZW12-and-more', '[C]');
    expect(redact('x secret-one-XYZW12-and-more y')).toBe('x [C] y');
  });

  it('a form of an `${env:}` value is shown and masked exactly where the value is', () => {
    registerSecret(QUOTED, '(from env Q)', 'zones[0].dns.records[1].content');
    const text = `content: "${json(QUOTED)}"`;
    expect(redactForStep(text, 'zones[0].dns.records[1]')).toBe('content: "(from env Q)"');
    expect(redactForStep(text, 'zones[0].dns.records[2]')).toBe(text);
    expect(redactAroundSteps(text)).toBe(text);
    expect(redact(text)).toBe('content: "(from env Q)"');
  });
});
