/**
 * How kinds' own checks are run: on values the schema accepted, with paths mapped to positions, and
 * a crash in a kind's checks reported as a diagnostic rather than thrown. Registers test kinds, which
 * is fine here: every test file runs in its own process.
 */
import { describe, expect, it } from 'vitest';
import { resolveKindPath } from '../../src/config/semantic.js';
import { registerKind } from '../../src/kinds/index.js';
import { lint } from './helpers.js';

registerKind({
  key: 'probe',
  scope: 'zone',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: { items: { type: 'array', items: { type: 'string' } }, boom: { type: 'boolean' } },
  },
  validate(value, ctx) {
    const v = value as { items?: string[]; boom?: boolean };
    if (v.boom) throw new Error('kaboom');
    (v.items ?? []).forEach((item, i) => {
      if (item === 'bad') ctx.error(`items[${i}]`, 'relative path');
      if (item === 'worse') ctx.error(`${ctx.path}.items[${i}]`, 'full path');
      if (item === 'meh') ctx.warn('', `owner is ${String(ctx.owner.name)}`);
    });
  },
});

const zone = (probe: string) => `version: 1\nzones:\n  - name: example.com\n    probe: ${probe}\n`;

describe('kinds checks', () => {
  it('maps relative and full paths reported by a kind to their positions', async () => {
    expect(await lint(zone('{ items: [ok, bad, worse, meh] }'))).toEqual([
      't.yaml:4:12: zones[0].probe: warning: owner is example.com',
      't.yaml:4:26: zones[0].probe.items[1]: relative path',
      't.yaml:4:31: zones[0].probe.items[2]: full path',
    ]);
  });

  it('skips a kind whose value failed the schema', async () => {
    expect(await lint(zone('{ items: [bad, 3] }'))).toEqual([
      't.yaml:4:27: zones[0].probe.items[1]: expected a string, got the number 3',
    ]);
  });

  it('reports a crash in a kind as a diagnostic, not a stack trace', async () => {
    expect(await lint(zone('{ boom: true }'))).toEqual([
      't.yaml:4:12: zones[0].probe: internal error in the probe checks (please report it): kaboom',
    ]);
  });

  it('resolves the forms of path a kind may give', () => {
    const base = 'zones[1].dns';
    expect(resolveKindPath(base, '')).toBe(base);
    expect(resolveKindPath(base, 'records[2].ttl')).toBe('zones[1].dns.records[2].ttl');
    expect(resolveKindPath(base, '.purge')).toBe('zones[1].dns.purge');
    expect(resolveKindPath(base, '[0]')).toBe('zones[1].dns[0]');
    expect(resolveKindPath(base, 'zones[1].dns.records[0]')).toBe('zones[1].dns.records[0]');
    expect(resolveKindPath(base, 'zones[0].name')).toBe('zones[0].name');
  });
});
