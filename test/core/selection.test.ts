import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/config/model.js';
import { parseShard, selectOwners, shardOf } from '../../src/core/selection.js';
import { rateLimitFor } from '../../src/cli/selection-options.js';

const state = (zones: string[], accounts: string[] = []): DesiredState => ({
  version: 1,
  source: { files: ['x.yaml'], sha256: '' },
  accounts: accounts.map((id, i) => ({ id, path: `accounts[${i}]` })),
  zones: zones.map((name, i) => ({ name, path: `zones[${i}]` })),
  locations: new Map(),
});

describe('shards', () => {
  it('are disjoint, cover every owner, and do not move when zones are added', () => {
    const names = Array.from({ length: 500 }, (_, i) => `zone-${i}.example`);
    const before = new Map(names.map((n) => [n, shardOf(n, 4)]));
    const shards = [1, 2, 3, 4].map(
      (index) => selectOwners(state(names), { zones: [], accounts: [], shard: { index, count: 4 } }).zones,
    );
    expect(
      shards
        .flat()
        .map((z) => z.name)
        .sort(),
    ).toEqual([...names].sort());
    expect(shards.every((s) => s.length > 80)).toBe(true); // roughly even
    // an owner's shard is a function of its name alone: adding zones moves none
    const grown = state([...names, ...Array.from({ length: 300 }, (_, i) => `new-${i}.example`)]);
    const first = selectOwners(grown, { zones: [], accounts: [], shard: { index: 1, count: 4 } });
    expect(first.zones.filter((z) => before.has(z.name)).map((z) => z.name)).toEqual(
      shards[0].map((z) => z.name),
    );
    expect(shardOf('Zone-1.Example', 4)).toBe(shardOf('zone-1.example', 4));
  });

  it('parse I/N and divide the API budget by N unless --rate-limit says', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', 'x', '1/0']) expect(() => parseShard(bad)).toThrow(/expected I\/N/);
    const shard = { zones: [], accounts: [], shard: { index: 1, count: 4 } };
    expect(rateLimitFor(shard, undefined)).toBe('300/300');
    expect(rateLimitFor({ ...shard, shard: { index: 1, count: 7 } }, undefined)).toBe('171/300');
    expect(rateLimitFor(shard, '50/60')).toBe('50/60');
    expect(rateLimitFor({ zones: [], accounts: [] }, undefined)).toBeUndefined();
  });
});

describe('--zone and --account', () => {
  it('select by name or glob, case-insensitively, and refuse a pattern that matches nothing', () => {
    const desired = state(['a.example.com', 'B.example.com.', 'example.org'], ['0123abcd']);
    const pick = (zones: string[], accounts: string[] = []) => selectOwners(desired, { zones, accounts });
    expect(pick(['*.example.com']).zones.map((z) => z.name)).toEqual(['a.example.com', 'B.example.com.']);
    expect(pick(['b.example.com']).accounts).toEqual([]);
    expect(pick([], ['0123*']).zones).toEqual([]);
    expect(() => pick(['example.net'])).toThrow('--zone example.net: matches no zone');
  });
});
