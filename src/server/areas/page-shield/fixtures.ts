/**
 * The `page_shield` section of a zone in the fixtures file: settings, CSP policies
 * (./fixture-policies.ts), and the detected scripts, connections and cookies the API cannot
 * create. Ids default to a stable hash of the zone and the item's URL (cookies: name and host), so
 * loading the same file twice changes nothing.
 */
import type { FixtureContext, FixturePath } from '../../area.js';
import type { ZoneRow } from '../../store/core.js';
import { stableId } from '../../store/ids.js';
import { isPlainObject } from '../area-helpers/replies.js';
import { seedOnce } from '../area-helpers/seeds.js';
import { loadPolicies } from './fixture-policies.js';
import { readSettings, upsertItem, writeSettings, type DetectedItem, type ItemKind } from './store.js';

const SCORE_FIELDS = [
  'js_integrity_score',
  'obfuscation_score',
  'dataflow_score',
  'malware_score',
  'cryptomining_score',
  'magecart_score',
];
const BOOLEAN_SETTINGS = [
  'enabled',
  'use_cloudflare_reporting_endpoint',
  'use_service_reporting_endpoint',
  'use_connection_url_path',
];
const SECTIONS: Record<string, ItemKind> = {
  scripts: 'script',
  connections: 'connection',
  cookies: 'cookie',
};

export function loadPageShieldFixtures(
  value: unknown,
  zone: ZoneRow,
  path: FixturePath,
  ctx: FixtureContext,
): void {
  if (!isPlainObject(value)) ctx.fail(path, 'must be a mapping (enabled, scripts, connections, cookies)');
  const db = ctx.app.db;
  for (const key of Object.keys(value)) {
    if (!BOOLEAN_SETTINGS.includes(key) && !(key in SECTIONS) && key !== 'policies') {
      ctx.fail(
        [...path, key],
        `is not a page_shield fixture key; use ${[...BOOLEAN_SETTINGS, 'policies', ...Object.keys(SECTIONS)].join(', ')}`,
      );
    }
  }
  const settings = readSettings(db, zone);
  for (const key of BOOLEAN_SETTINGS) {
    const v = value[key];
    if (v !== undefined && typeof v !== 'boolean') ctx.fail([...path, key], 'must be true or false');
  }
  // settings are the API's once seeded: a restart with the same file must not undo a PUT
  const seed = seedOnce(db, 'page_shield_settings', zone.id);
  for (const key of BOOLEAN_SETTINGS) {
    const v = value[key];
    if (v === undefined || !seed) continue;
    if (key === 'enabled') settings.enabled = v ? 1 : 0;
    else if (key === 'use_connection_url_path') settings.use_connection_url_path = v ? 1 : 0;
    else settings.use_cloudflare_reporting_endpoint = v ? 1 : 0;
  }
  if (seed) writeSettings(db, settings);
  if (value.policies !== undefined) loadPolicies(value.policies, zone, [...path, 'policies'], ctx);
  for (const [section, kind] of Object.entries(SECTIONS)) {
    const list = value[section];
    if (list === undefined) continue;
    if (!Array.isArray(list)) ctx.fail([...path, section], `must be a list of ${section}`);
    list.forEach((raw, i) =>
      upsertItem(db, zone.id, kind, itemFrom(kind, raw, zone, [...path, section, i], ctx)),
    );
  }
}

function itemFrom(
  kind: ItemKind,
  raw: unknown,
  zone: ZoneRow,
  path: FixturePath,
  ctx: FixtureContext,
): DetectedItem {
  if (!isPlainObject(raw)) ctx.fail(path, 'must be a mapping');
  const item: Record<string, unknown> = { ...raw };
  const str = (key: string, required: boolean) => {
    const v = item[key];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v === '')
      ctx.fail([...path, key], required ? 'is required (a string)' : 'must be a string');
    return v;
  };
  const stamp = zone.created_on;
  if (kind === 'cookie') {
    const name = str('name', true)!;
    const host = str('host', true)!;
    item.id = str('id', false) ?? stableId('page_shield_cookie', `${zone.id}\0${name}\0${host}`);
    item.type ??= 'first_party';
    if (item.page_urls !== undefined && !isStringList(item.page_urls))
      ctx.fail([...path, 'page_urls'], 'must be a list of URLs');
    item.page_urls ??= [];
  } else {
    const url = str('url', true)!;
    item.id = str('id', false) ?? stableId(`page_shield_${kind}`, `${zone.id}\0${url}`);
    if (item.host === undefined) item.host = hostOf(url);
    item.added_at ??= stamp;
    item.status ??= 'active';
    if (!['active', 'infrequent', 'inactive'].includes(String(item.status))) {
      ctx.fail([...path, 'status'], 'must be active, infrequent or inactive');
    }
    item.url_contains_cdn_cgi_path ??= /\/cdn-cgi\//.test(url);
    item.domain_reported_malicious ??= false;
    item.url_reported_malicious ??= false;
    if (kind === 'connection') item.malicious_domain_categories ??= [];
    if (item.page_urls !== undefined && !isStringList(item.page_urls))
      ctx.fail([...path, 'page_urls'], 'must be a list of URLs');
    item.page_urls ??= typeof item.first_page_url === 'string' ? [item.first_page_url] : [];
  }
  item.first_seen_at ??= stamp;
  item.last_seen_at ??= item.first_seen_at;
  for (const f of SCORE_FIELDS) {
    if (
      item[f] !== undefined &&
      item[f] !== null &&
      (typeof item[f] !== 'number' || !Number.isInteger(item[f]))
    ) {
      ctx.fail([...path, f], 'must be an integer score (1-99)');
    }
  }
  if (kind === 'script' && item.versions === undefined) {
    // one version: the script as currently fetched
    const version: Record<string, unknown> = {
      hash: item.hash ?? null,
      fetched_at: item.fetched_at ?? item.last_seen_at,
    };
    for (const f of SCORE_FIELDS) if (item[f] !== undefined) version[f] = item[f];
    item.versions = [version];
  } else if (item.versions !== undefined && !Array.isArray(item.versions)) {
    ctx.fail([...path, 'versions'], 'must be a list');
  }
  return item as DetectedItem;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url.replace(/^[a-z]+:\/\//i, '').split(/[/?#:]/)[0];
  }
}

function isStringList(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
