// A fixtures list of records loaded into a zone with no record yet (a fresh store, the sandbox of
// `plan --rehearse`) is checked against itself in memory rather than the store: a repeated record
// or id is still loaded once, and records that differ only in priority are still two.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';

const ID = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('fixtures records in a fresh zone', () => {
  it('loads a repeated record or id once, and priority-only differences as distinct records', async () => {
    server = await startServer({
      db: ':memory:',
      quiet: true,
      fixtures: {
        zones: [
          {
            name: 'once.test',
            plan: 'enterprise',
            records: [
              { name: 'a', type: 'A', content: '192.0.2.1' },
              { name: 'a', type: 'A', content: '192.0.2.1', ttl: 600 },
              { id: ID, name: 'b', type: 'A', content: '192.0.2.2' },
              { id: ID, name: 'c', type: 'A', content: '192.0.2.3' },
              { name: '@', type: 'MX', content: 'mx.once.test', priority: 10 },
              { name: '@', type: 'MX', content: 'mx.once.test', priority: 20 },
              { name: '@', type: 'MX', content: 'mx.once.test', priority: 20 },
            ],
          },
        ],
      },
    });
    const rows = server.db.prepare('SELECT id, name, type, ttl FROM dns_records ORDER BY seq').all() as {
      id: string;
      name: string;
      type: string;
      ttl: number;
    }[];
    expect(rows.map((r) => `${r.name} ${r.type}`)).toEqual([
      'a.once.test A',
      'b.once.test A',
      'once.test MX',
      'once.test MX',
    ]);
    // the first of a repeated pair is the one kept, as when each is looked up in the store
    expect(rows[0].ttl).toBe(1);
    expect(rows[1].id).toBe(ID);
  });
});
