/**
 * The name hints (src/kinds/dns/name-hints.ts) come record by record, the name's before the
 * content's, whatever else the list holds: the first ones listed are the first ones a file with
 * more warnings than are listed shows.
 */
import { describe, expect, it } from 'vitest';
import type { ValidateContext } from '../../../src/core/kind.js';
import { isObject } from '../../../src/rules/shared/values.js';
import { NameHints } from '../../../src/kinds/dns/name-hints.js';

function hintsOf(records: unknown[], zone = 'acme.com'): string[] {
  const said: string[] = [];
  const ctx: ValidateContext = {
    path: 'zones[0].dns',
    owner: { name: zone },
    document: {},
    error: (path, message) => said.push(`error ${path}: ${message}`),
    warn: (path) => said.push(path),
    schemaFailed: () => false,
  };
  // as validate.ts gives them the records: each that is a mapping, in order
  const hints = new NameHints(zone);
  records.forEach((r, i) => isObject(r) && hints.see(r, i));
  hints.report(records, ctx);
  return said;
}

describe('the name hints', () => {
  it('come in record order, a name before its content', () => {
    expect(
      hintsOf([
        { name: 'a.acme.org', type: 'CNAME', content: 'www' },
        { name: 'www', type: 'A', content: '192.0.2.1' },
        'not a record',
        { name: 'b.acme.net', type: 'A', content: '192.0.2.2' },
        { name: 'c', type: 'CNAME', content: 'B.acme.NET' },
        { name: 'd.acme.com', type: 'CNAME', content: 'c.acme.com' },
        { name: ' E.Acme.Io ', type: 'CNAME', content: 'elsewhere.example' },
        { type: 'CNAME', content: 'nameless' },
      ]),
    ).toEqual([
      'records[0].name',
      'records[0].content',
      'records[3].name',
      'records[4].content',
      'records[6].name',
      'records[7].content',
    ]);
  });

  it('are silent for a zone without relative names or CNAMEs', () => {
    expect(
      hintsOf([
        { name: '@', type: 'A', content: '192.0.2.1' },
        { name: 'www.acme.com', type: 'A', content: '192.0.2.2' },
        { name: 'api.acme.com.', type: 'AAAA', content: '2001:db8::1' },
        { name: 'mail', type: 'MX', content: 'mx.example.net', priority: 10 },
      ]),
    ).toEqual([]);
  });

  it('warn about a target without a dot in a zone whose names have none, and only about it', () => {
    expect(
      hintsOf([
        { name: 'www', type: 'A', content: '192.0.2.1' },
        { name: 'blog', type: 'CNAME', content: 'www.example.net' },
        { name: 'shop', type: 'CNAME', content: ' WWW ' },
        { name: 'api', type: 'CNAME', content: 'api.acme.com.' },
      ]),
    ).toEqual(['records[2].content']);
  });
});
