// The DNS plan limits (docs/kinds/dns.md, "Comments, tags and plan limits") over real HTTP, on each
// write path (POST, PUT, PATCH, batch), with the store unchanged after every refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiResponse, type TestServer } from './helpers.js';

let t: TestServer;
const zoneIds: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      zones: [
        { name: 'free.test', plan: 'free', records: [{ type: 'A', name: '@', content: '192.0.2.1' }] },
        { name: 'pro.test', plan: 'pro', records: [{ type: 'A', name: '@', content: '192.0.2.1' }] },
        {
          name: 'full.test',
          plan: 'enterprise',
          record_quota: 3,
          records: [
            { type: 'A', name: '@', content: '192.0.2.1' },
            { type: 'A', name: 'www', content: '192.0.2.2' },
          ],
        },
      ],
    },
  });
  const zones = await t.api('GET', '/zones?per_page=50');
  for (const z of zones.body.result as { id: string; name: string }[]) zoneIds[z.name] = z.id;
});
afterAll(() => t.close());

const base = (zone: string) => `/zones/${zoneIds[zone]}/dns_records`;

function errors(r: ApiResponse) {
  return r.body.errors.map((e) => ({ code: e.code, message: e.message, error_chain: e.error_chain }));
}

/** The zone's records as stored, ids and values (every write path is judged by this not moving). */
async function stored(zone: string): Promise<string> {
  const r = await t.api('GET', `${base(zone)}?per_page=5000`);
  return JSON.stringify(r.body.result);
}

/** One record to edit on each zone: `www` (an A), created once. */
async function editable(zone: string): Promise<string> {
  const list = await t.api('GET', `${base(zone)}?name=edit.${zone}`);
  if (list.body.result.length > 0) return list.body.result[0].id;
  const r = await t.api('POST', base(zone), { type: 'A', name: 'edit', content: '192.0.2.9' });
  expect(r.status, r.text).toBe(200);
  return r.body.result.id;
}

/** The same change sent by POST, PUT, PATCH and each batch list: all refused alike, nothing stored. */
async function refusedOnEveryPath(
  zone: string,
  fields: Record<string, unknown>,
  expected: { status: number; errors: unknown },
): Promise<void> {
  const id = await editable(zone);
  const before = await stored(zone);
  const record = { type: 'A', name: 'edit', content: '192.0.2.9', ...fields };
  const fresh = { ...record, name: 'new' };
  const attempts: [string, () => Promise<ApiResponse>][] = [
    ['POST', () => t.api('POST', base(zone), fresh)],
    ['PUT', () => t.api('PUT', `${base(zone)}/${id}`, record)],
    ['PATCH', () => t.api('PATCH', `${base(zone)}/${id}`, fields)],
    ['batch posts', () => t.api('POST', `${base(zone)}/batch`, { posts: [fresh] })],
    ['batch puts', () => t.api('POST', `${base(zone)}/batch`, { puts: [{ ...record, id }] })],
    ['batch patches', () => t.api('POST', `${base(zone)}/batch`, { patches: [{ ...fields, id }] })],
  ];
  for (const [path, send] of attempts) {
    const r = await send();
    expect(r.status, `${path}: ${r.text}`).toBe(expected.status);
    const got = errors(r).map(({ error_chain, ...e }) => (error_chain ? { ...e, error_chain } : e));
    expect(got, path).toEqual(expected.errors);
    expect(await stored(zone), `${path} changed the store`).toBe(before);
  }
}

const TAGS_REFUSED = {
  status: 400,
  errors: [
    {
      code: 1004,
      message: 'DNS Validation Error',
      error_chain: [{ code: 9300, message: 'DNS record has 1 tags, exceeding the quota of 0.' }],
    },
  ],
};

describe('tags', () => {
  it('a Free zone refuses a record with tags on every write path (1004 / 9300)', async () => {
    await refusedOnEveryPath('free.test', { tags: ['team:web'] }, TAGS_REFUSED);
  });

  it('the count in the message is the record’s', async () => {
    const r = await t.api('POST', base('free.test'), {
      type: 'TXT',
      name: 'two',
      content: 'x',
      tags: ['a:1', 'b:2'],
    });
    expect(r.body.errors[0].error_chain).toEqual([
      { code: 9300, message: 'DNS record has 2 tags, exceeding the quota of 0.' },
    ]);
  });

  it('a Free zone takes a record without tags, and an empty list', async () => {
    const r = await t.api('POST', base('free.test'), {
      type: 'TXT',
      name: 'untagged',
      content: 'x',
      tags: [],
    });
    expect(r.status, r.text).toBe(200);
  });

  it('a paid zone takes tags on every write path', async () => {
    const id = await editable('pro.test');
    const posted = await t.api('POST', base('pro.test'), {
      type: 'TXT',
      name: 'tagged',
      content: 'x',
      tags: ['team:web'],
    });
    expect(posted.body.result.tags).toEqual(['team:web']);
    const patched = await t.api('PATCH', `${base('pro.test')}/${id}`, { tags: ['team:api', 'env:prod'] });
    expect(patched.body.result.tags).toEqual(['env:prod', 'team:api']);
    const batch = await t.api('POST', `${base('pro.test')}/batch`, {
      puts: [{ id, type: 'A', name: 'edit', content: '192.0.2.9', tags: ['team:dns'] }],
    });
    expect(batch.body.result.puts[0].tags).toEqual(['team:dns']);
  });
});

describe('comments', () => {
  const longerThanFree = 'c'.repeat(101);

  it('a Free zone refuses a comment over 100 characters on every write path', async () => {
    await refusedOnEveryPath(
      'free.test',
      { comment: longerThanFree },
      {
        status: 400,
        errors: [
          {
            code: 1004,
            message: 'DNS Validation Error',
            error_chain: [
              { code: 9108, message: '"comment" is longer than 100 characters, the limit on the free plan.' },
            ],
          },
        ],
      },
    );
    const fits = await t.api('POST', base('free.test'), {
      type: 'TXT',
      name: 'c100',
      content: 'x',
      comment: 'c'.repeat(100),
    });
    expect(fits.status, fits.text).toBe(200);
  });

  it('a paid zone takes 500 characters and refuses 501 on every write path', async () => {
    const fits = await t.api('POST', base('pro.test'), {
      type: 'TXT',
      name: 'c500',
      content: 'x',
      comment: 'c'.repeat(500),
    });
    expect(fits.status, fits.text).toBe(200);
    await refusedOnEveryPath(
      'pro.test',
      { comment: 'c'.repeat(501) },
      {
        status: 400,
        errors: [
          {
            code: 1004,
            message: 'DNS Validation Error',
            error_chain: [{ code: 9108, message: '"comment" is longer than 500 characters.' }],
          },
        ],
      },
    );
  });

  it('no plan takes a newline or a carriage return in a comment', async () => {
    for (const comment of ['two\nlines', 'carriage\rreturn']) {
      await refusedOnEveryPath(
        'pro.test',
        { comment },
        {
          status: 400,
          errors: [
            {
              code: 1004,
              message: 'DNS Validation Error',
              error_chain: [
                { code: 9108, message: '"comment" may not hold a newline or a carriage return.' },
              ],
            },
          ],
        },
      );
    }
  });
});

describe('the record quota (fixtures set full.test to 3)', () => {
  const QUOTA_REFUSED = [{ code: 81045, message: 'The record quota has been exceeded.' }];
  const txt = (name: string) => ({ type: 'TXT', name, content: 'x' });

  it('POST fills the quota, then is refused with 81045 and nothing is stored', async () => {
    const third = await t.api('POST', base('full.test'), txt('third'));
    expect(third.status, third.text).toBe(200);
    const before = await stored('full.test');
    const fourth = await t.api('POST', base('full.test'), txt('fourth'));
    expect(fourth.status).toBe(400);
    expect(errors(fourth)).toEqual(QUOTA_REFUSED);
    expect(await stored('full.test')).toBe(before);
  });

  it('a batch is judged on its final state: more posts than deletes is refused whole', async () => {
    const before = await stored('full.test');
    const list = JSON.parse(before) as { id: string; name: string }[];
    const third = list.find((r) => r.name === 'third.full.test')!;
    const over = await t.api('POST', `${base('full.test')}/batch`, {
      deletes: [{ id: third.id }],
      posts: [txt('a'), txt('b')],
    });
    expect(over.status).toBe(400);
    expect(errors(over)).toEqual(QUOTA_REFUSED);
    expect(await stored('full.test')).toBe(before);
    // one delete for one post ends at the quota: accepted
    const swap = await t.api('POST', `${base('full.test')}/batch`, {
      deletes: [{ id: third.id }],
      posts: [txt('swapped')],
    });
    expect(swap.status, swap.text).toBe(200);
  });

  it('a full zone still takes PUT, PATCH and deletes', async () => {
    const list = (await t.api('GET', `${base('full.test')}?name=swapped.full.test`)).body.result;
    const id = list[0].id as string;
    expect((await t.api('PATCH', `${base('full.test')}/${id}`, { content: 'patched' })).status).toBe(200);
    expect((await t.api('PUT', `${base('full.test')}/${id}`, txt('swapped'))).status).toBe(200);
    expect((await t.api('DELETE', `${base('full.test')}/${id}`)).status).toBe(200);
    expect((await t.api('POST', base('full.test'), txt('again'))).status).toBe(200);
  });

  it('a Free zone created now holds 200 records: the 201st is refused', async () => {
    const created = await t.api('POST', '/zones', {
      name: 'quota.test',
      account: { id: (await t.api('GET', '/accounts')).body.result[0].id },
    });
    const records = `/zones/${created.body.result.id}/dns_records`;
    const posts = Array.from({ length: 200 }, (_, i) => txt(`t${i}`));
    expect((await t.api('POST', `${records}/batch`, { posts })).status).toBe(200);
    const over = await t.api('POST', records, txt('one-more'));
    expect(errors(over)).toEqual(QUOTA_REFUSED);
  });

  it('a Free zone the fixtures date before 2024-09-01 holds 1,000 records: the 1,001st is refused', async () => {
    const older = await startTestServer({
      fixtures: { zones: [{ name: 'older.test', plan: 'free', created_on: '2023-05-01T00:00:00Z' }] },
    });
    try {
      const [zone] = (await older.api('GET', '/zones?name=older.test')).body.result;
      expect(zone.created_on).toBe('2023-05-01T00:00:00.000Z');
      const records = `/zones/${zone.id}/dns_records`;
      for (let b = 0; b < 5; b++) {
        const posts = Array.from({ length: 200 }, (_, i) => txt(`t${b}-${i}`));
        const r = await older.api('POST', `${records}/batch`, { posts });
        expect(r.status, r.text).toBe(200);
      }
      const over = await older.api('POST', records, txt('one-more'));
      expect(errors(over)).toEqual(QUOTA_REFUSED);
    } finally {
      await older.close();
    }
  });

  it('fixtures refuse a created_on that is not an ISO 8601 date and time', async () => {
    for (const created_on of ['2023-05-01', 'yesterday', '2023-13-01T00:00:00Z']) {
      await expect(
        startTestServer({ fixtures: { zones: [{ name: 'bad.test', created_on }] } }),
      ).rejects.toThrow(/created_on: must be an ISO 8601 date and time with a time zone/);
    }
  });

  it('fixtures refuse a record_quota that is not a whole number', async () => {
    await expect(
      startTestServer({ fixtures: { zones: [{ name: 'bad.test', record_quota: -1 }] } }),
    ).rejects.toThrow(/record_quota: must be a whole number of records, 0 or more/);
  });
});
