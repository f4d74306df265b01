/**
 * The edits of the drift property test: another client (the official TypeScript SDK, `cloudflare`
 * on npm, unchanged but for its base URL) changes one thing of one owner, chosen from a seed. Each
 * edit says what `drift` must do about it: name the object (`expect` is a fragment of the step's
 * address or of one of its change paths, lower case) or say nothing (`expect: null`, an object or a
 * field the file does not manage). The rules come from the kinds' pages: a field the file leaves out
 * (a record's comment or tags, a job's output options or upload limits, an override's `enabled`, a
 * policy's description, the Page Shield switch) is not managed; an added object is drift only where
 * the file purges; `ignore:` patterns, other owners' objects and zones the file never names are
 * never drift. A flag or a choice is set away from the file's value, never toggled from the live
 * one, so two edits of one owner in a round cannot cancel out.
 */
import { rng, type Rng } from '../support/dns-entries.js';
import { dnsEdit, dnsUnmanagedEdit } from './drift-dns-edits.js';
import { hex, type Edit, type Live, type Sdk } from './drift-edit-kit.js';
import { ownerZoneEdit } from './drift-owner-edits.js';
import { WAF_OTHER_RULE, WAF_RULE, type AccountWorld, type ZoneWorld } from './drift-world.js';

export type { Edit };

const ENTRYPOINT = 'http_request_firewall_managed';

async function pageShieldEdit(cf: Sdk, r: Rng, z: ZoneWorld, zoneId: string): Promise<Edit> {
  const policies: Live[] = [];
  for await (const p of cf.pageShield.policies.list({ zone_id: zoneId })) policies.push(p as Live);
  const what = r.pick([
    'action',
    'expression',
    'value',
    'enabled',
    'same',
    'rename',
    'delete',
    'add',
    'switch',
    'foreign',
  ]);
  if (what === 'switch') {
    const settings = (await cf.pageShield.get({ zone_id: zoneId })) as Live;
    const enabled = z.pageShieldEnabled === undefined ? !settings.enabled : !z.pageShieldEnabled;
    await cf.pageShield.update({ zone_id: zoneId, enabled });
    return {
      label: `page_shield enabled -> ${enabled}`,
      expect: z.pageShieldEnabled === undefined ? null : 'settings',
    };
  }
  if (what === 'add') {
    const description = `added policy ${hex(r, 4)}`;
    await cf.pageShield.policies.create({
      zone_id: zoneId,
      description,
      action: 'log',
      expression: `http.host eq "${z.name}"`,
      value: "script-src 'self'",
      enabled: true,
    } as any);
    return {
      label: `page_shield add "${description}" (purge ${z.pageShieldPurge})`,
      expect: z.pageShieldPurge ? description : null,
    };
  }
  const own = new Set(z.policies.map((p) => p.description));
  const pool = policies.filter((p) =>
    what === 'foreign' ? !own.has(p.description) : own.has(p.description),
  );
  if (pool.length === 0) return pageShieldEdit(cf, r, z, zoneId);
  const p = r.pick(pool);
  const expect = what === 'foreign' || what === 'same' ? null : String(p.description).toLowerCase();
  if (what === 'delete') {
    await cf.pageShield.policies.delete(p.id, { zone_id: zoneId });
    return { label: `page_shield delete "${p.description}"`, expect };
  }
  const body: Live = {
    description: p.description,
    action: p.action,
    expression: p.expression,
    value: p.value,
    enabled: p.enabled === true || p.enabled === 'true',
  };
  const file = z.policies.find((f) => f.description === p.description);
  if (what === 'action') body.action = file?.action === 'log' ? 'allow' : 'log';
  else if (what === 'expression') body.expression = `http.host eq "edited.${z.name}"`;
  else if (what === 'rename') body.description = `${p.description} (moved)`;
  else if (what === 'value') body.value = `script-src 'self' https://edited-${hex(r, 4)}.example.net`;
  else if (what === 'same') {
    // whitespace runs outside quoted strings and a trailing `;` carry no meaning
    body.value = `  ${String(p.value)
      .replace(/[\s;]+$/, '')
      .replace(/ /g, '   ')} ;`;
    body.expression = String(p.expression).replace(/ (eq|in) /g, '  $1   ');
  } else body.enabled = file === undefined ? !body.enabled : !(file.enabled ?? true);
  await cf.pageShield.policies.update(p.id, { zone_id: zoneId, ...body } as any);
  return { label: `page_shield ${what} of "${p.description}"`, expect };
}

async function logpushEdit(cf: Sdk, r: Rng, z: ZoneWorld, zoneId: string): Promise<Edit> {
  const jobs: Live[] = [];
  for await (const j of cf.logpush.jobs.list({ zone_id: zoneId })) jobs.push(j as Live);
  const what = r.pick([
    'destination',
    'enabled',
    'filter',
    'output',
    'upload',
    'same',
    'rename',
    'kind',
    'delete',
    'add',
    'foreign',
  ]);
  if (what === 'add') {
    const name = `added-job-${hex(r, 4)}`;
    await cf.logpush.jobs.create({
      zone_id: zoneId,
      name,
      dataset: 'http_requests',
      destination_conf: `https://collector.example.net/${name}`,
    } as any);
    return { label: `logpush add "${name}" (purge ${z.logpushPurge})`, expect: z.logpushPurge ? name : null };
  }
  const own = new Map(z.jobs.map((j) => [j.name, j]));
  const pool = jobs.filter(
    (j) =>
      (what === 'foreign') !== own.has(j.name) && (what !== 'same' || own.get(j.name)?.filter !== undefined),
  );
  if (pool.length === 0) return logpushEdit(cf, r, z, zoneId);
  const j = r.pick(pool);
  const entry = own.get(j.name);
  const named = String(j.name);
  if (what === 'delete') {
    await cf.logpush.jobs.delete(j.id, { zone_id: zoneId });
    return { label: `logpush delete "${named}"`, expect: named };
  }
  const body: Live = {};
  let managed = entry !== undefined;
  if (what === 'destination' || what === 'foreign')
    body.destination_conf = `https://collector.example.net/edited-${hex(r, 4)}`;
  else if (what === 'enabled') body.enabled = entry === undefined ? !j.enabled : !(entry.enabled ?? true);
  else if (what === 'rename') body.name = `${named}-moved`;
  // edge jobs exist only for http_requests; the file's jobs leave `kind` out, which means ''
  else if (what === 'kind' && j.dataset === 'http_requests') body.kind = 'edge';
  else if (what === 'kind') body.enabled = entry === undefined ? !j.enabled : !(entry.enabled ?? true);
  else if (what === 'filter') {
    // a job without `filter` in the file has none: a filter added live is drift too
    body.filter = JSON.stringify({
      where: { and: [{ key: 'ClientRequestHost', operator: 'eq', value: `edited.${z.name}` }] },
    });
  } else if (what === 'same') {
    // the same filter with its keys in another order and spaces, and an output option at its default
    const where = (entry!.filter as Live).where;
    const conditions = (where.and as Live[]).map((c) => ({
      value: c.value,
      operator: c.operator,
      key: c.key,
    }));
    body.filter = JSON.stringify({ where: { and: conditions } }, null, 2);
    body.output_options = { ...(j.output_options ?? {}), sample_rate: 1 };
    managed = false;
  } else if (what === 'output') {
    body.output_options = { field_names: ['ClientIP', 'EdgeResponseBytes'] };
    managed &&= 'output_options' in entry!;
  } else {
    body.max_upload_records = 2000;
    managed &&= 'max_upload_records' in entry!;
  }
  await cf.logpush.jobs.update(j.id, { zone_id: zoneId, ...body } as any);
  return { label: `logpush ${what} of "${named}": ${JSON.stringify(body)}`, expect: managed ? named : null };
}

async function wafEdit(cf: Sdk, r: Rng, z: ZoneWorld, zoneId: string): Promise<Edit> {
  const entry = (await cf.rulesets.phases.get(ENTRYPOINT, { zone_id: zoneId })) as Live;
  const rules = (entry.rules as Live[]).map((rule) => ({ ...rule }));
  const execute = rules.find((rule) => rule.action === 'execute')!;
  const overrides: Live[] = [...(execute.action_parameters?.overrides?.rules ?? [])];
  const file = z.wafOverrides[0];
  const what = r.pick(['action', 'enabled', 'delete', 'other']);
  const mine = overrides.findIndex((o) => o.id === WAF_RULE);
  let expect: string | null = `overrides.${WAF_RULE}`;
  if (what === 'action')
    overrides[mine] = { ...overrides[mine], action: file.action === 'log' ? 'block' : 'log' };
  else if (what === 'enabled') {
    overrides[mine] = { ...overrides[mine], enabled: false };
    if (!('enabled' in file)) expect = null;
  } else if (what === 'delete') overrides.splice(mine, 1);
  else {
    const other = overrides.findIndex((o) => o.id === WAF_OTHER_RULE);
    const value = { id: WAF_OTHER_RULE, action: r.pick(['log', 'block']) };
    if (other === -1) overrides.push(value);
    else overrides[other] = value;
    expect = null;
  }
  // the published schema wants at least one override rule: an emptied list goes as no overrides
  const { overrides: _old, ...parameters } = execute.action_parameters ?? {};
  execute.action_parameters =
    overrides.length === 0 ? parameters : { ...parameters, overrides: { ..._old, rules: overrides } };
  const body = rules.map(({ id: _id, version: _v, last_updated: _l, ref: _r, ...rule }) => rule);
  await cf.rulesets.phases.update(ENTRYPOINT, { zone_id: zoneId, rules: body } as any);
  return { label: `waf override ${what}`, expect };
}

/** One seeded edit of a zone: every zone-level kind, managed or not. */
export async function zoneEdit(cf: Sdk, seed: number, z: ZoneWorld, zoneId: string): Promise<Edit> {
  if (z.owner !== undefined) return ownerZoneEdit(cf, seed, z, zoneId);
  const r = rng(seed);
  const kind = r.pick(['dns', 'dns', 'dns', 'dns-unmanaged', 'page_shield', 'logpush', 'waf']);
  if (kind === 'dns') return dnsEdit(cf, r, z, zoneId);
  if (kind === 'dns-unmanaged') return dnsUnmanagedEdit(cf, r, z, zoneId);
  if (kind === 'page_shield') return pageShieldEdit(cf, r, z, zoneId);
  if (kind === 'logpush') return logpushEdit(cf, r, z, zoneId);
  return wafEdit(cf, r, z, zoneId);
}

const bodyOf = (p: Live): Live => ({
  name: p.name,
  alert_type: p.alert_type,
  enabled: p.enabled,
  mechanisms: p.mechanisms,
  filters: p.filters ?? {},
  ...(p.description !== undefined ? { description: p.description } : {}),
});

/** One seeded edit of an account's notification policies. */
export async function accountEdit(cf: Sdk, seed: number, a: AccountWorld, poolIds: string[]): Promise<Edit> {
  const r = rng(seed);
  const policies: Live[] = [];
  for await (const p of cf.alerting.policies.list({ account_id: a.id })) policies.push(p as Live);
  const what = r.pick([
    'new_health',
    'event_source',
    'pools',
    'email',
    'enabled',
    'description',
    'same',
    'rename',
    'alert_type',
    'delete',
    'add',
    'other-type',
    'foreign',
  ]);
  if (what === 'add' || what === 'other-type') {
    const name = `added ${hex(r, 4)}`;
    const alert_type = what === 'add' ? 'load_balancing_health_alert' : 'billing_usage_alert';
    await cf.alerting.policies.create({
      account_id: a.id,
      name,
      alert_type,
      enabled: true,
      mechanisms: { email: [{ id: 'x@example.com' }] },
    } as any);
    return {
      label: `notifications add ${alert_type} "${name}" (purge ${a.purge})`,
      expect: what === 'add' && a.purge ? name : null,
    };
  }
  const own = new Map(a.notifications.map((n) => [n.name, n]));
  const pool = policies.filter(
    (p) => p.alert_type === 'load_balancing_health_alert' && (what === 'foreign') !== own.has(p.name),
  );
  if (pool.length === 0) return accountEdit(cf, seed + 7919, a, poolIds);
  const p = r.pick(pool);
  const named = String(p.name).toLowerCase();
  if (what === 'delete') {
    await cf.alerting.policies.delete(p.id, { account_id: a.id });
    return { label: `notifications delete "${p.name}"`, expect: named };
  }
  const body = bodyOf(p);
  let expect: string | null = what === 'foreign' || what === 'same' ? null : named;
  if (what === 'new_health') body.filters = { ...body.filters, new_health: ['Healthy'] };
  else if (what === 'event_source') body.filters = { ...body.filters, event_source: ['origin'] };
  else if (what === 'pools') {
    // the file's `all` becomes one pool, its one pool becomes all: a set the file does not ask for
    body.filters = {
      ...body.filters,
      pool_id: own.get(p.name)!.pools === 'all' ? [r.pick(poolIds)] : poolIds,
    };
  } else if (what === 'email')
    body.mechanisms = { ...body.mechanisms, email: [{ id: `edited-${hex(r, 4)}@example.com` }] };
  else if (what === 'rename') body.name = `${p.name} moved`;
  else if (what === 'alert_type') body.alert_type = 'load_balancing_pool_enablement_alert';
  else if (what === 'same') {
    // lists are sets, e-mail addresses compared without regard to case
    const reversed = (xs: unknown) => (Array.isArray(xs) ? [...xs].reverse() : xs);
    body.filters = Object.fromEntries(Object.entries(body.filters as Live).map(([k, v]) => [k, reversed(v)]));
    const email = (body.mechanisms.email ?? []) as Live[];
    body.mechanisms = {
      ...body.mechanisms,
      email: email.map((e) => ({ id: String(e.id).toUpperCase() })).reverse(),
    };
  } else if (what === 'enabled') body.enabled = !(own.get(p.name)!.enabled ?? true);
  else if (what === 'foreign') body.enabled = !body.enabled;
  else {
    body.description = `edited ${hex(r, 4)}`;
    if (!('description' in own.get(p.name)!)) expect = null;
  }
  await cf.alerting.policies.update(p.id, { account_id: a.id, ...body } as any);
  return { label: `notifications ${what} of "${p.name}"`, expect };
}
