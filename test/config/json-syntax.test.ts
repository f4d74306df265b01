/** Files in JSON syntax (valid YAML) take a fast path; results must be the same as the YAML path's. */
import { describe, expect, it } from 'vitest';
import { loadDesiredState } from '../../src/config/load.js';
import { parseJsonFast } from '../../src/config/json-fast-path.js';
import { lint, writeTemp } from './helpers.js';
import type { DesiredDns } from '../../src/kinds/dns/desired.js';

const doc = {
  version: 1,
  zones: [
    {
      name: 'example.com',
      dns: {
        records: [
          { name: '@', type: 'A', content: '192.0.2.1', proxied: true, ttl: 'auto' },
          { name: 'www', type: 'CNAME', content: 'example.com', proxied: true },
        ],
      },
    },
  ],
};

describe('JSON syntax', () => {
  it('loads the same desired state as the equivalent YAML, with locations on demand', async () => {
    const json = writeTemp(JSON.stringify(doc, null, 2), 'same.json');
    const yaml = writeTemp(
      'version: 1\nzones:\n  - name: example.com\n    dns:\n      records:\n' +
        '        - { name: "@", type: A, content: 192.0.2.1, proxied: true, ttl: auto }\n' +
        '        - { name: www, type: CNAME, content: example.com, proxied: true }\n',
    );
    const a = (await loadDesiredState(json, { env: {} })).desired;
    const b = (await loadDesiredState(yaml, { env: {} })).desired;
    expect(a.zones).toEqual(b.zones);
    expect((a.zones[0].dns as DesiredDns).records[0].ttl).toBe(1);
    // line 11 of the pretty-printed JSON holds records[0].content
    expect(a.locations.get('zones[0].dns.records[0].content')).toEqual({ file: json, line: 11, col: 24 });
  });

  it('reports problems of a JSON file at their line and column', async () => {
    const bad = structuredClone(doc) as any;
    bad.zones[0].dns.records[1].proxyed = true;
    const out = await lint(JSON.stringify(bad, null, 2));
    expect(out).toEqual([
      't.yaml:20:13: zones[0].dns.records[1].proxyed: unknown key `proxyed`; did you mean `proxied`?',
    ]);
  });

  it('leaves duplicate keys, merge keys, deep nesting and bad JSON to the YAML path', () => {
    expect(parseJsonFast('{"a": 1, "b": {"c": 2}}', 64)).toEqual({ a: 1, b: { c: 2 } });
    expect(parseJsonFast('{"a": 1, "\\u0061": 2}', 64)).toBeUndefined();
    expect(parseJsonFast('{"<<": {"a": 1}}', 64)).toBeUndefined();
    expect(parseJsonFast('{"a":' + '['.repeat(70) + ']'.repeat(70) + '}', 64)).toBeUndefined();
    expect(parseJsonFast('{"a": 1,}', 64)).toBeUndefined();
    expect(parseJsonFast('version: 1', 64)).toBeUndefined();
    // the same key in two different objects is fine, and strings may hold braces and colons
    expect(parseJsonFast('{"a": {"k": "}:{"}, "b": {"k": 1}}', 64)).toEqual({ a: { k: '}:{' }, b: { k: 1 } });
  });

  it('reports a duplicate key of a JSON file where it repeats', async () => {
    const out = await lint('{\n  "version": 1,\n  "version": 1\n}\n');
    expect(out).toEqual(['t.yaml:3:3: version: duplicate key `version` (first set on line 2)']);
  });
});
