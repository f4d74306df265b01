import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { ZONES, startAreaServer } from './setup.js';

let t: TestServer;
const ps = `/zones/${ZONES.pro}/page_shield`;
beforeAll(async () => {
  t = await startAreaServer();
});
afterAll(() => t.close());

describe('Page Shield settings', () => {
  it('reads both reporting-flag names and moves updated_at on every PUT', async () => {
    const before = (await t.api('GET', ps)).body.result;
    expect(before).toMatchObject({
      enabled: false,
      use_cloudflare_reporting_endpoint: true,
      use_service_reporting_endpoint: true,
    });
    const on = await t.api('PUT', ps, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.result.enabled).toBe(true);
    expect(on.body.result.updated_at > before.updated_at).toBe(true);
    const off = await t.api('PUT', ps, { enabled: false, use_service_reporting_endpoint: false });
    expect(off.body.result).toMatchObject({ enabled: false, use_cloudflare_reporting_endpoint: false });
    expect(off.body.result.updated_at > on.body.result.updated_at).toBe(true);
    const real = await t.api('PUT', ps, {
      use_cloudflare_reporting_endpoint: true,
      use_connection_url_path: true,
    });
    expect(real.body.result).toMatchObject({
      use_service_reporting_endpoint: true,
      use_connection_url_path: true,
    });
    expect((await t.api('GET', ps)).body.result).toMatchObject(real.body.result);
  });

  it('refuses unknown fields, non-booleans and contradicting flag names', async () => {
    const r = await t.api('PUT', ps, { enabled: 'yes', colour: 1 });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'enabled: must be true or false',
      'colour: is not a Page Shield setting',
    ]);
    const c = await t.api('PUT', ps, {
      use_cloudflare_reporting_endpoint: true,
      use_service_reporting_endpoint: false,
    });
    expect(c.status).toBe(400);
  });
});

describe('Page Shield detected items', () => {
  it('lists active scripts only by default, without cdn-cgi and duplicates, with result_info', async () => {
    const r = await t.api('GET', `${ps}/scripts`);
    expect(r.status).toBe(200);
    // 30 + malicious + unscored active scripts; infrequent, inactive, cdn-cgi and the duplicate are hidden
    expect(r.body.result_info).toEqual({
      page: 1,
      per_page: 100,
      count: 32,
      total_count: 32,
      total_pages: 1,
    });
    expect(r.body.result.every((s: { status: string }) => s.status === 'active')).toBe(true);
    expect(r.body.result[0]).not.toHaveProperty('page_urls');
    expect(r.body.result[0]).not.toHaveProperty('versions');
  });

  it('pages with page/per_page, and page=all', async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const r = await t.api('GET', `${ps}/scripts?per_page=10&page=${page}`);
      expect(r.body.result_info).toMatchObject({ page, per_page: 10, total_count: 32, total_pages: 4 });
      seen.push(...r.body.result.map((s: { id: string }) => s.id));
      if (page >= r.body.result_info.total_pages) break;
    }
    expect(new Set(seen).size).toBe(32);
    const all = await t.api('GET', `${ps}/scripts?page=all`);
    expect(all.body.result).toHaveLength(32);
    // out of range is clamped, as the real API serves it (http/paging.ts)
    expect((await t.api('GET', `${ps}/scripts?per_page=101`)).body.result_info.per_page).toBe(100);
    expect((await t.api('GET', `${ps}/scripts?page=0`)).body.result_info.page).toBe(1);
    expect((await t.api('GET', `${ps}/scripts?page=9`)).body.result).toEqual([]);
  });

  it('filters by status lists, hosts, urls, page_url and the exclude flags', async () => {
    const count = async (q: string) =>
      (await t.api('GET', `${ps}/scripts?${q}`)).body.result_info.total_count;
    expect(await count('status=infrequent')).toBe(1);
    expect(await count('status=active,infrequent,inactive')).toBe(34);
    expect((await t.api('GET', `${ps}/scripts?status=gone`)).status).toBe(400);
    expect(await count('hosts=cdn1.example.net')).toBe(11);
    expect(await count('hosts=*.example.net&exclude_urls=lib-0')).toBe(22);
    expect(await count('urls=lib-01.js,lib-02.js')).toBe(2);
    expect(await count('page_url=*page-7')).toBe(1);
    expect(await count('exclude_cdn_cgi=false')).toBe(33);
    expect(await count('exclude_duplicates=false')).toBe(33);
  });

  it('orders by first_seen_at and puts malicious scripts first on request', async () => {
    const asc = (await t.api('GET', `${ps}/scripts?order_by=first_seen_at&direction=asc`)).body.result;
    expect(asc[0].url).toMatch(/lib-43/); // first seen in 2023
    const mal = (await t.api('GET', `${ps}/scripts?prioritize_malicious=true&direction=desc`)).body.result;
    expect(mal[0].js_integrity_score).toBe(3);
    expect((await t.api('GET', `${ps}/scripts?order_by=size`)).status).toBe(400);
  });

  it('gets one script with page_urls and versions', async () => {
    const list = (await t.api('GET', `${ps}/scripts?urls=lib-05.js`)).body.result;
    const one = await t.api('GET', `${ps}/scripts/${list[0].id}`);
    expect(one.body.result.page_urls).toEqual(['https://example.com/', 'https://example.com/page-5']);
    expect(one.body.result.versions).toEqual([
      expect.objectContaining({ js_integrity_score: 50, hash: list[0].hash }),
    ]);
    expect((await t.api('GET', `${ps}/scripts/ffffffffffffffffffffffffffffffff`)).status).toBe(404);
  });

  it('lists and gets connections and cookies', async () => {
    const conns = await t.api('GET', `${ps}/connections`);
    expect(conns.body.result).toHaveLength(1);
    expect(conns.body.result_info.total_count).toBe(1);
    expect((await t.api('GET', `${ps}/connections?status=infrequent`)).body.result[0].url).toBe(
      'https://old.example.net/x',
    );
    expect((await t.api('GET', `${ps}/connections/${conns.body.result[0].id}`)).body.result.host).toBe(
      'api.example.net',
    );
    const cookies = await t.api('GET', `${ps}/cookies?secure=true`);
    expect(cookies.body.result.map((c: { name: string }) => c.name)).toEqual(['session']);
    expect((await t.api('GET', `${ps}/cookies?same_site=lax`)).body.result[0].name).toBe('_ga');
    expect((await t.api('GET', `${ps}/cookies/${cookies.body.result[0].id}`)).body.result.page_urls).toEqual([
      'pro.example/',
    ]);
  });
});

describe('Page Shield policies', () => {
  const policy = {
    description: 'log third-party scripts',
    action: 'log',
    expression: 'http.host eq "pro.example"',
    enabled: 'true',
    value: "script-src 'self' https://cdn.example.net",
  };

  it('creates, reads, updates partially and deletes with 204', async () => {
    const created = await t.api('POST', `${ps}/policies`, policy);
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(created.body.result).toEqual({ ...policy, id, enabled: true });
    expect((await t.api('GET', `${ps}/policies`)).body.result).toEqual([created.body.result]);
    const put = await t.api('PUT', `${ps}/policies/${id}`, { action: 'allow', enabled: false });
    expect(put.body.result).toEqual({ ...policy, id, action: 'allow', enabled: false });
    expect((await t.api('GET', `${ps}/policies/${id}`)).body.result.action).toBe('allow');
    const del = await t.api('DELETE', `${ps}/policies/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.api('GET', `${ps}/policies/${id}`)).status).toBe(404);
    expect((await t.api('DELETE', `${ps}/policies/${id}`)).status).toBe(404);
  });

  it('requires all five fields on POST and says what is wrong where', async () => {
    const missing = await t.api('POST', `${ps}/policies`, { description: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e) => e.source?.pointer)).toEqual([
      '/action',
      '/expression',
      '/enabled',
      '/value',
    ]);
    const bad = await t.api('POST', `${ps}/policies`, {
      ...policy,
      expression: 'http.host eq',
      value: 'script-src self',
    });
    expect(bad.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'expression: at column 13: expected a field, a function or a value, found the end of the expression',
      'value: directive 1 (script-src): source "self" must be quoted: \'self\'',
    ]);
    expect(
      (
        await t.api('POST', `${ps}/policies`, {
          ...policy,
          action: 'add_reporting_directives',
          enabled: false,
        })
      ).status,
    ).toBe(200);
  });
});
