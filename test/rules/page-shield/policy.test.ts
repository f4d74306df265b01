import { describe, expect, it } from 'vitest';
import {
  checkCspValue,
  checkExpression,
  isMaliciousScript,
  parsePolicyEnabled,
  validateCspPolicy,
} from '../../../src/rules/page-shield/index.js';

const policy = {
  description: 'log third-party scripts',
  action: 'log',
  expression: 'http.host eq "example.com"',
  enabled: 'true',
  value: "script-src 'self' https://cdn.example.com https://js.example.com/app.js",
};

describe('rule expressions', () => {
  it('accepts well-formed expressions', () => {
    for (const e of [
      'http.host eq "example.com"',
      'http.host in {"a.example.com" "b.example.com"}',
      'not ssl',
      '(http.host eq "a.com" or http.host eq "b.com") and not http.request.uri.path contains "/admin"',
      'lower(http.host) == "x.com" && ip.src in {192.0.2.0/24 2001:db8::/32}',
      'http.request.headers["x-a"][0] eq "1"',
      'tcp.dstport in {80 443 8000..8080}',
      'http.host strict wildcard "*.example.com"',
      'ip.src in $office_ips',
      'http.request.uri.path matches r"^/api/"',
    ]) {
      expect(checkExpression(e), e).toBeUndefined();
    }
  });

  it('refuses garbage and says where', () => {
    expect(checkExpression('http.host eq')).toEqual({
      column: 13,
      message: 'expected a field, a function or a value, found the end of the expression',
    });
    expect(checkExpression('http.host eq "a" and')?.message).toMatch(/found the end/);
    expect(checkExpression('(http.host eq "a"')?.message).toMatch(/"\)"/);
    expect(checkExpression('http.host eq "a')?.message).toMatch(/not closed/);
    expect(checkExpression('http.host eq "a" "b"')).toMatchObject({ column: 18 });
    expect(checkExpression('http.host in {}')?.message).toMatch(/at least one value/);
    expect(checkExpression('http.host @ "a"')).toMatchObject({ column: 11 });
    expect(checkExpression('')?.message).toBe('is empty');
    expect(checkExpression('ip.src eq 1.2.3')?.message).toMatch(/not a number, range, IP/);
    // addresses are read by the one address parser (src/rules/dns/ip.ts), not by their shape
    for (const bad of ['999.999.999.999', '192.0.2.0/99', ':::::', '2001:db8::/129'])
      expect(checkExpression(`ip.src in {${bad}}`)?.message, bad).toMatch(/not a number, range, IP/);
    expect(checkExpression('ip.src in {10.0.0.1 ::ffff:192.0.2.1 2001:db8::1/128}')).toBeUndefined();
  });
});

describe('CSP values', () => {
  it('accepts hosts, schemes, URLs, keywords, nonces and hashes', () => {
    expect(
      checkCspValue(
        "script-src 'self' 'unsafe-inline' 'strict-dynamic' 'nonce-r4nd0m' 'sha256-abc+/=' https: *.example.com cdn.example.com:443 https://js.example.com/app.js; connect-src 'none'; upgrade-insecure-requests;",
      ),
    ).toEqual([]);
  });

  it('refuses unquoted keywords, bad directives, bad hosts and misplaced none', () => {
    expect(checkCspValue('script-src self')[0]).toMatch(/must be quoted: 'self'/);
    expect(checkCspValue("script-srcc 'self'")[0]).toMatch(/not a CSP directive/);
    expect(checkCspValue("script-src 'self' 'none'")[0]).toMatch(/'none' must be the only source/);
    expect(checkCspValue("script-src 'unsafe-everything'")[0]).toMatch(/is not a keyword/);
    expect(checkCspValue('script-src https://exa_mple.com')[0]).toMatch(/invalid host/);
    expect(checkCspValue("script-src 'self'; script-src 'none'")[0]).toMatch(/appears twice/);
    expect(checkCspValue('script-src')[0]).toMatch(/at least one source/);
    expect(checkCspValue('')[0]).toMatch(/empty/);
    expect(checkCspValue('upgrade-insecure-requests x')[0]).toMatch(/takes no value/);
  });
});

describe('CSP policy fields', () => {
  it('accepts a full policy and returns enabled as a boolean', () => {
    const r = validateCspPolicy(policy, { partial: false });
    expect(r.violations).toEqual([]);
    expect(r.fields.enabled).toBe(true);
  });

  it('requires all five fields on create, any subset on update', () => {
    expect(validateCspPolicy({}, { partial: false }).violations.map((v) => v.path)).toEqual([
      'description',
      'action',
      'expression',
      'enabled',
      'value',
    ]);
    expect(validateCspPolicy({ enabled: false }, { partial: true })).toEqual({
      violations: [],
      fields: { enabled: false },
    });
  });

  it('names the field and the problem', () => {
    const v = (body: object) => validateCspPolicy({ ...policy, ...body }, { partial: false }).violations;
    expect(v({ action: 'block' })).toEqual([
      { path: 'action', message: 'must be one of log, allow, add_reporting_directives' },
    ]);
    expect(v({ enabled: 'yes' })[0].path).toBe('enabled');
    expect(v({ expression: 'http.host eq' })[0].message).toMatch(/^at column 13:/);
    expect(v({ value: 'script-src self' })[0]).toMatchObject({ path: 'value' });
    expect(v({ colour: 'x' })[0].path).toBe('colour');
    expect(v({ action: 'add_reporting_directives' })).toEqual([]);
  });

  it('parses enabled', () => {
    expect([true, false, 'true', 'false', 'TRUE', 1].map(parsePolicyEnabled)).toEqual([
      true,
      false,
      true,
      false,
      undefined,
      undefined,
    ]);
  });
});

describe('malicious scripts', () => {
  it('is malicious below 10; a missing score is unknown, never malicious', () => {
    expect(isMaliciousScript({ js_integrity_score: 9 })).toBe(true);
    expect(isMaliciousScript({ js_integrity_score: 10 })).toBe(false);
    expect(isMaliciousScript({ js_integrity_score: 0 })).toBe(true);
    expect(isMaliciousScript({})).toBe(false);
    expect(isMaliciousScript({ js_integrity_score: null })).toBe(false);
  });
});
