/**
 * The edits of the drift property test in a zone whose entry names an `owner` (drift-world.ts):
 * another owner's objects (marked `zoneplan-owner:other` in a DNS tag, a policy's description, a
 * job's name) edited, deleted or added, and unmarked objects added, must never show, though every
 * kind of the entry purges; a value of one of the zone's own records changed must be named.
 */
import { rng, type Rng } from '../support/dns-entries.js';
import { dnsEdit } from './drift-dns-edits.js';
import { hex, relative, type Edit, type Live, type Sdk } from './drift-edit-kit.js';
import { OTHER_OWNER, type ZoneWorld } from './drift-world.js';

const TAG = `zoneplan-owner:${OTHER_OWNER}`;
const DESCRIPTION = ` [zoneplan-owner:${OTHER_OWNER}]`;
const JOB_SUFFIX = `.zoneplan-owner.${OTHER_OWNER}`;

/** Another owner's record, policy and job, made before the first apply. */
export async function createOtherOwners(cf: Sdk, z: ZoneWorld, zoneId: string): Promise<void> {
  await cf.dns.records.create({
    zone_id: zoneId,
    type: 'TXT',
    name: `theirs.${z.name}`,
    content: 'another owner',
    ttl: 1,
    tags: [TAG],
  });
  await cf.pageShield.policies.create({
    zone_id: zoneId,
    description: `their policy${DESCRIPTION}`,
    action: 'log',
    expression: `http.host eq "${z.name}"`,
    value: "script-src 'self'",
    enabled: true,
  } as any);
  await cf.logpush.jobs.create({
    zone_id: zoneId,
    name: `their-job${JOB_SUFFIX}`,
    dataset: 'http_requests',
    destination_conf: 'https://collector.example.net/theirs',
  } as any);
}

async function othersEdit(cf: Sdk, r: Rng, z: ZoneWorld, zoneId: string): Promise<Edit> {
  const what = r.pick(['record', 'policy', 'job']);
  if (what === 'record') {
    const recs: Live[] = [];
    for await (const rec of cf.dns.records.list({ zone_id: zoneId, per_page: 100 })) recs.push(rec as Live);
    const theirs = r.pick(recs.filter((rec) => (rec.tags ?? []).includes(TAG)));
    const content = `edited ${hex(r, 6)}`;
    await cf.dns.records.edit(theirs.id, { zone_id: zoneId, type: 'TXT', content } as any);
    return {
      label: `another owner's ${relative(theirs.name, z.name)} TXT: content -> "${content}"`,
      expect: null,
    };
  }
  if (what === 'policy') {
    const policies: Live[] = [];
    for await (const p of cf.pageShield.policies.list({ zone_id: zoneId })) policies.push(p as Live);
    const theirs = r.pick(policies.filter((p) => String(p.description).endsWith(DESCRIPTION)));
    const value = `script-src 'self' https://theirs-${hex(r, 4)}.example.net`;
    await cf.pageShield.policies.update(theirs.id, {
      zone_id: zoneId,
      description: theirs.description,
      action: theirs.action,
      expression: theirs.expression,
      value,
      enabled: true,
    } as any);
    return { label: `another owner's policy "${theirs.description}": value -> ${value}`, expect: null };
  }
  const jobs: Live[] = [];
  for await (const j of cf.logpush.jobs.list({ zone_id: zoneId })) jobs.push(j as Live);
  const theirs = r.pick(jobs.filter((j) => String(j.name).endsWith(JOB_SUFFIX)));
  await cf.logpush.jobs.update(theirs.id, { zone_id: zoneId, enabled: !theirs.enabled } as any);
  return { label: `another owner's job "${theirs.name}": enabled flipped`, expect: null };
}

async function addsEdit(cf: Sdk, r: Rng, z: ZoneWorld, zoneId: string): Promise<Edit> {
  const marked = r.chance(0.5);
  const mark = marked ? 'another owner' : 'no owner';
  const what = r.pick(['record', 'policy', 'job']);
  const name = `added-${hex(r, 4)}`;
  if (what === 'record') {
    await cf.dns.records.create({
      zone_id: zoneId,
      type: 'TXT',
      name: `${name}.${z.name}`,
      content: 'added',
      ttl: 1,
      ...(marked ? { tags: [TAG] } : {}),
    });
  } else if (what === 'policy') {
    await cf.pageShield.policies.create({
      zone_id: zoneId,
      description: `${name}${marked ? DESCRIPTION : ''}`,
      action: 'log',
      expression: `http.host eq "${z.name}"`,
      value: "script-src 'self'",
      enabled: true,
    } as any);
  } else {
    await cf.logpush.jobs.create({
      zone_id: zoneId,
      name: `${name}${marked ? JOB_SUFFIX : ''}`,
      dataset: 'http_requests',
      destination_conf: `https://collector.example.net/${name}`,
    } as any);
  }
  return { label: `${what} "${name}" added with ${mark} (the entry purges its own)`, expect: null };
}

/** One seeded edit of a zone with an owner. */
export async function ownerZoneEdit(cf: Sdk, seed: number, z: ZoneWorld, zoneId: string): Promise<Edit> {
  const r = rng(seed);
  const what = r.pick(['others', 'others', 'adds', 'own']);
  if (what === 'others') return othersEdit(cf, r, z, zoneId);
  if (what === 'adds') return addsEdit(cf, r, z, zoneId);
  return dnsEdit(cf, r, z, zoneId, ['value', 'ttl', 'comment', 'delete']);
}
