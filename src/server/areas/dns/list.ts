/**
 * `GET /zones/{zone_id}/dns_records` with every filter of the real API, translated to one SQL
 * query on the indexed columns. Filters are case-insensitive. `match` combines the plain
 * filters (all = AND, any = OR); `tag_match` combines the tag filters, whose result joins the
 * others through `match`, as the API documents.
 */
import { canonicalIpv4, canonicalIpv6, fullName } from '../../../rules/dns/index.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError, pageInfo, type Reply } from '../../http/envelope.js';
import { LIST_PAGING, pageParams } from '../../http/paging.js';
import { checkFilterValues } from '../../http/query-limits.js';
import { boolParam, enumParam } from '../../http/request.js';
import { dataVersion, sql, type Db } from '../../store/db.js';

type Cond = { text: string; args: unknown[] };

function like(value: string): string {
  return value.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c);
}

/** `field`, `field.exact|contains|startswith|endswith` on a lower-cased column. */
function textFilters(
  q: URLSearchParams,
  param: string,
  column: string,
  normalise: (v: string) => string,
): Cond[] {
  const out: Cond[] = [];
  // `name` is stored in lower case: comparing the bare column lets SQLite use the (zone_id, name) index
  const col = column === 'name' ? 'name' : `lower(${column})`;
  const exact = q.get(param) ?? q.get(`${param}.exact`);
  if (exact !== null) out.push({ text: `${col} = ?`, args: [normalise(exact)] });
  const forms: [string, (v: string) => string][] = [
    ['contains', (v) => `%${like(v)}%`],
    ['startswith', (v) => `${like(v)}%`],
    ['endswith', (v) => `%${like(v)}`],
  ];
  for (const [form, pattern] of forms) {
    const v = q.get(`${param}.${form}`);
    if (v !== null) out.push({ text: `${col} LIKE ? ESCAPE '\\'`, args: [pattern(v)] });
  }
  return out;
}

const TAG_PARAMS = [
  'tag',
  'tag.present',
  'tag.absent',
  'tag.exact',
  'tag.contains',
  'tag.startswith',
  'tag.endswith',
];

/** Every tag filter is one condition: their count is bounded together (http/query-limits.ts). */
function checkTagFilterCount(q: URLSearchParams): void {
  let count = 0;
  for (const [key] of q) if (TAG_PARAMS.includes(key)) count++;
  checkFilterValues(`tag (with ${TAG_PARAMS.slice(1).join(', ')}, together)`, count);
}

function tagFilters(q: URLSearchParams): Cond[] {
  checkTagFilterCount(q);
  const out: Cond[] = [];
  const has = (where: string, args: unknown[]): Cond => ({
    text: `EXISTS (SELECT 1 FROM json_each(dns_records.tags) WHERE ${where})`,
    args,
  });
  const split = (v: string, param: string): [string, string] => {
    const i = v.indexOf(':');
    if (i < 0)
      throw ApiError.badRequest(`The query parameter ${param} must be <tag-name>:<tag-value>, not "${v}".`);
    return [v.slice(0, i).toLowerCase(), v.slice(i + 1).toLowerCase()];
  };
  for (const v of q.getAll('tag')) {
    if (v.includes(':')) out.push(has('lower(value) = ?', [v.toLowerCase()]));
    else out.push(has("(value = ? OR value LIKE ? ESCAPE '\\')", [v.toLowerCase(), `${like(v)}:%`]));
  }
  for (const v of q.getAll('tag.present'))
    out.push(has("(value = ? OR value LIKE ? ESCAPE '\\')", [v.toLowerCase(), `${like(v)}:%`]));
  for (const v of q.getAll('tag.absent')) {
    const c = has("(value = ? OR value LIKE ? ESCAPE '\\')", [v.toLowerCase(), `${like(v)}:%`]);
    out.push({ text: `NOT ${c.text}`, args: c.args });
  }
  for (const v of q.getAll('tag.exact')) out.push(has('lower(value) = ?', [split(v, 'tag.exact').join(':')]));
  const forms: [string, (n: string, v: string) => string][] = [
    ['contains', (n, v) => `${like(n)}:%${like(v)}%`],
    ['startswith', (n, v) => `${like(n)}:${like(v)}%`],
    ['endswith', (n, v) => `${like(n)}:%${like(v)}`],
  ];
  for (const [form, pattern] of forms) {
    for (const v of q.getAll(`tag.${form}`)) {
      const [n, val] = split(v, `tag.${form}`);
      out.push(has("lower(value) LIKE ? ESCAPE '\\'", [pattern(n, val)]));
    }
  }
  return out;
}

const ORDER_COLUMNS = {
  type: 'type',
  name: 'name',
  content: 'content',
  ttl: 'ttl',
  proxied: 'proxied',
} as const;

const counts = new WeakMap<Db, Map<string, { version: string; n: number }>>();

/**
 * COUNT(*) for result_info, cached until records change: on a 100,000-record zone the count
 * costs more than the page itself, and clients page through with the same filters.
 */
function countCached(db: Db, where: string, args: unknown[], version: string): number {
  let map = counts.get(db);
  if (!map) counts.set(db, (map = new Map()));
  const key = where + '\0' + JSON.stringify(args);
  const hit = map.get(key);
  if (hit && hit.version === version) return hit.n;
  const n = (sql(db, `SELECT COUNT(*) AS n FROM dns_records WHERE ${where}`).get(...args) as { n: number }).n;
  if (map.size > 1000) map.clear();
  map.set(key, { version, n });
  return n;
}

export function listRecords(ctx: RequestContext): Reply {
  const zone = ctx.zone!;
  const q = ctx.query;
  const { page, perPage } = pageParams(q, LIST_PAGING.dnsRecords);
  const match = enumParam(q, 'match', ['any', 'all'] as const, 'all');
  const tagMatch = enumParam(q, 'tag_match', ['any', 'all'] as const, 'all');
  const order = enumParam(q, 'order', ['type', 'name', 'content', 'ttl', 'proxied'] as const, 'type');
  const direction = enumParam(q, 'direction', ['asc', 'desc'] as const, 'asc');

  const plain: Cond[] = [];
  const type = q.get('type');
  if (type) {
    const types = type
      .split(',')
      .map((t) => t.trim().toUpperCase())
      .filter(Boolean);
    checkFilterValues('type', types.length);
    plain.push({ text: `type IN (${types.map(() => '?').join(', ')})`, args: types });
  }
  plain.push(...textFilters(q, 'name', 'name', (v) => (fullName(v, zone.name) ?? v).toLowerCase()));
  plain.push(
    ...textFilters(q, 'content', 'content', (v) => (canonicalIpv4(v) ?? canonicalIpv6(v) ?? v).toLowerCase()),
  );
  const proxied = boolParam(q, 'proxied');
  if (proxied !== undefined) plain.push({ text: 'proxied = ?', args: [proxied ? 1 : 0] });
  plain.push(...textFilters(q, 'comment', "coalesce(comment, '')", (v) => v.toLowerCase()));
  if (q.has('comment.present')) plain.push({ text: 'comment IS NOT NULL', args: [] });
  if (q.has('comment.absent')) plain.push({ text: 'comment IS NULL', args: [] });
  const tags = tagFilters(q);
  if (tags.length > 0) {
    const joiner = tagMatch === 'all' ? ' AND ' : ' OR ';
    plain.push({ text: `(${tags.map((t) => t.text).join(joiner)})`, args: tags.flatMap((t) => t.args) });
  }

  let where = 'zone_id = ?';
  const args: unknown[] = [zone.id];
  if (plain.length > 0) {
    where += ` AND (${plain.map((c) => c.text).join(match === 'all' ? ' AND ' : ' OR ')})`;
    args.push(...plain.flatMap((c) => c.args));
  }
  const search = q.get('search');
  if (search) {
    where +=
      " AND (name LIKE ? ESCAPE '\\' OR lower(content) LIKE ? ESCAPE '\\' OR lower(coalesce(comment, '')) LIKE ? ESCAPE '\\')";
    const pattern = `%${like(search)}%`;
    args.push(pattern, pattern, pattern);
  }

  const db = ctx.app.db;
  const version = dataVersion(db);
  const total = countCached(db, where, args, version);
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  const tiebreak =
    order === 'type'
      ? `name ${dir}, content ${dir}`
      : order === 'name'
        ? `type ${dir}, content ${dir}`
        : `name ${dir}, type ${dir}`;
  const offset = (page - 1) * perPage;
  let rows: { json: string }[] = [];
  if (offset < total) {
    rows = sql(
      db,
      `SELECT json FROM dns_records WHERE ${where} ORDER BY ${ORDER_COLUMNS[order]} ${dir}, ${tiebreak}, seq ${dir} LIMIT ? OFFSET ?`,
    ).all(...args, perPage, offset) as { json: string }[];
  }
  return {
    rawResult: '[' + rows.map((r) => r.json).join(',') + ']',
    resultInfo: pageInfo(page, perPage, rows.length, total),
  };
}
