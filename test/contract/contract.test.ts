/**
 * The contract checker itself: a violating exchange is caught (so the proxies in the integration
 * harnesses cannot pass silently), a conforming one is not, and every known deviation is written
 * with its evidence.
 */
import { describe, expect, it } from 'vitest';
import { isKnownDeviation, KNOWN_DEVIATIONS } from './known-deviations.js';
import { OpenApiContract } from './openapi.js';
import { judge } from '../support/contract-proxy.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const contract = new OpenApiContract();
const READ_ONLY = {
  id: 'abc',
  proxiable: true,
  created_on: '2024-01-01T00:00:00Z',
  modified_on: '2024-01-01T00:00:00Z',
};
const envelope = (result: unknown) => ({ success: true, errors: [], messages: [], result });

describe('the OpenAPI contract check', () => {
  it('catches a request body that breaks the schema', () => {
    const found = contract.check({
      method: 'POST',
      url: `/zones/${ZONE}/page_shield/policies`,
      requestBody: {
        description: 'x',
        action: 'deny',
        expression: 'true',
        enabled: true,
        value: "script-src 'none'",
      },
      status: 200,
      responseBody: envelope(null),
    });
    expect(found.map((v) => `${v.where}: ${v.message}`)).toContainEqual(
      expect.stringMatching(/^request body: \/action must be equal to one of the allowed values/),
    );
  });

  it('catches a response body that breaks the schema, and an undocumented query parameter', () => {
    const into = { violations: [] as { where: string; message: string }[], known: [] };
    judge(
      {
        method: 'GET',
        url: `/zones/${ZONE}/dns_records?bogus=1`,
        status: 200,
        responseBody: envelope([{ id: 'x', type: 'A', name: 'a.example.com', content: 'not an address' }]),
      },
      into as never,
    );
    const text = into.violations.map((v) => `${v.where}: ${v.message}`);
    expect(text).toContain('query bogus: parameter not documented');
    expect(text).toContainEqual(
      expect.stringMatching(/^response 200 body: \/result\/\*\/content must match format "ipv4"/),
    );
  });

  it('checks each item of a DNS batch (outside the subset) as its single-record operation', () => {
    const into = { violations: [] as { operation: string; where: string; message: string }[], known: [] };
    const good = { type: 'A', name: 'a.example.com', content: '192.0.2.1', ttl: 1, proxied: false };
    const bad = { ...good, name: 'b.example.com', content: 'not an address' };
    judge(
      {
        method: 'POST',
        url: `/zones/${ZONE}/dns_records/batch`,
        requestBody: { posts: [good, bad] },
        status: 200,
        responseBody: envelope({
          posts: [
            { ...READ_ONLY, ...good },
            { ...READ_ONLY, ...bad },
          ],
        }),
      },
      into as never,
    );
    expect(into.violations.map((v) => `${v.operation} ${v.where}: ${v.message}`)).toEqual([
      'POST /zones/{zone_id}/dns_records request body: /content must match format "ipv4"',
      'POST /zones/{zone_id}/dns_records response 200 body: /result/content must match format "ipv4"',
    ]);
  });

  it('judges a DNS record by its own type only', () => {
    const found = contract.check({
      method: 'GET',
      url: `/zones/${ZONE}/dns_records/abc`,
      status: 200,
      responseBody: envelope({ ...READ_ONLY, type: 'MX', name: 'example.com', content: 'mx.example.com' }),
    });
    expect(found.map((v) => v.message)).toEqual(["/result must have required property 'priority'"]);
  });

  it('passes a conforming exchange', () => {
    const into = { violations: [], known: [] };
    judge(
      {
        method: 'POST',
        url: `/zones/${ZONE}/dns_records`,
        requestBody: { type: 'A', name: 'www.example.com', content: '192.0.2.1', ttl: 1, proxied: false },
        status: 200,
        responseBody: envelope({
          ...READ_ONLY,
          type: 'A',
          name: 'www.example.com',
          content: '192.0.2.1',
          ttl: 1,
          proxied: false,
        }),
      },
      into,
    );
    expect(into.violations).toEqual([]);
  });

  it('requires a readOnly property in responses only, also when allOf marks it (the ruleset id)', () => {
    const put = {
      method: 'PUT',
      url: `/zones/${ZONE}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      requestBody: { rules: [] },
      status: 200,
    };
    expect(contract.check(put)).toEqual([]);
  });

  it('accepts a managed rule without expression in a managed ruleset only', () => {
    const rule = {
      id: '5de7edfa648c4d6891dc3e7f84534ffa',
      version: '1',
      action: 'block',
      categories: ['bad-robots'],
      description: 'Bad Robots - Known Malicious User Agent',
      enabled: true,
      last_updated: '2026-01-05T00:00:00.000000Z',
      ref: '5de7edfa648c4d6891dc3e7f84534ffa',
    };
    const ruleset = (kind: string) => ({
      id: 'efb7b8c949ac4650a09736fc376e9aee',
      name: 'Cloudflare Managed Ruleset',
      kind,
      phase: 'http_request_firewall_managed',
      version: '1',
      last_updated: '2026-01-05T00:00:00.000000Z',
      rules: [rule],
    });
    const judged = (kind: string) => {
      const into = { violations: [] as { where: string; message: string }[], known: [] as unknown[] };
      judge(
        {
          method: 'GET',
          url: `/zones/${ZONE}/rulesets/efb7b8c949ac4650a09736fc376e9aee`,
          status: 200,
          responseBody: envelope(ruleset(kind)),
        },
        into as never,
      );
      return into;
    };
    expect(judged('managed')).toMatchObject({ violations: [], known: [expect.anything()] });
    expect(judged('zone').violations.map((v) => v.message)).toEqual([
      "/result/rules/* must have required property 'expression'",
    ]);
  });

  it("accepts managed_challenge, which breaks the subset's own action pattern, and nothing else with it", () => {
    const put = (action: string) => ({
      method: 'PUT',
      url: `/zones/${ZONE}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      requestBody: {
        rules: [
          {
            action: 'execute',
            expression: 'true',
            action_parameters: {
              id: 'efb7b8c949ac4650a09736fc376e9aee',
              overrides: { rules: [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action }] },
            },
          },
        ],
      },
      status: 200,
    });
    const into = { violations: [] as { message: string }[], known: [] as unknown[] };
    judge(put('managed_challenge'), into as never);
    expect(into.violations).toEqual([]);
    // the pattern, and what follows from it: the execute rule matches no variant of the oneOf
    expect(into.known).toHaveLength(3);
    judge(put('Block'), into as never);
    expect(into.violations.map((v) => v.message)).toContain(
      '/rules/*/action_parameters/overrides/rules/*/action must match pattern "^[a-z]+$"',
    );
  });

  it("covers a deviation only on the operations its evidence is about (DNS records' id)", () => {
    const missingId = { where: 'request body', message: "/ must have required property 'id'" };
    expect(isKnownDeviation({ operation: 'POST /zones/{zone_id}/dns_records', ...missingId })).toBe(true);
    expect(
      isKnownDeviation({
        operation: 'PUT /zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint',
        ...missingId,
      }),
    ).toBe(false);
  });

  it('gives every known deviation its evidence', () => {
    for (const d of KNOWN_DEVIATIONS) expect(d.evidence.length, d.operation).toBeGreaterThan(20);
  });
});
