import { describe, expect, it } from 'vitest';
import type { ValidateContext } from '../../../src/core/kind.js';
import { validatePageShield } from '../../../src/kinds/page-shield/validate.js';

function check(value: unknown) {
  const found: { severity: string; path: string; message: string }[] = [];
  const ctx: ValidateContext = {
    path: 'zones[0].page_shield',
    owner: {},
    document: {},
    error: (path, message) => found.push({ severity: 'error', path, message }),
    warn: (path, message) => found.push({ severity: 'warning', path, message }),
    schemaFailed: () => false,
  };
  validatePageShield(value, ctx);
  return found;
}

const good = {
  description: 'log third-party scripts',
  action: 'log',
  expression: 'http.host eq "example.com"',
  value: "script-src 'self' https://cdn.example.com 'nonce-abc123'",
};

describe('page_shield validate', () => {
  it('accepts a well-formed policy', () => {
    expect(check({ enabled: true, policies: [good], max_malicious_scripts: 0 })).toEqual([]);
  });

  it('reports a malformed expression and CSP value at the policy field', () => {
    const found = check({
      policies: [{ ...good, expression: 'http.host eq', value: "script-src 'selfish' https://" }],
    });
    expect(found.map((f) => f.path)).toEqual([
      'zones[0].page_shield.policies[0].expression',
      'zones[0].page_shield.policies[0].value',
    ]);
    expect(found[0].message).toMatch(/column/);
  });

  it('refuses duplicate descriptions, naming the first', () => {
    const found = check({ policies: [good, { ...good }] });
    expect(found).toEqual([
      {
        severity: 'error',
        path: 'zones[0].page_shield.policies[1].description',
        message: expect.stringContaining(
          'duplicate policy description "log third-party scripts" (also policies[0])',
        ),
      },
    ]);
  });

  it('warns that a ceiling on a disabled zone only counts old detections', () => {
    expect(check({ enabled: false, max_malicious_scripts: 0 })).toMatchObject([{ severity: 'warning' }]);
  });
});
