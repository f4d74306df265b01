/**
 * The DNS edits of the drift property test (see drift-edits.ts): a new value for every field of
 * every record type, TTL, proxied, comment, tags, settings, renames, deletes and adds, the same value
 * in another spelling, and edits of records the file does not manage (another owner's where the
 * zone does not purge, ignored names, a record added beside a managed one).
 */
import type { Rng } from '../support/dns-entries.js';
import { b64, hex, relative, type Edit, type Live, type Sdk } from './drift-edit-kit.js';
import type { ZoneWorld } from './drift-world.js';

/** The file's entry of a live record (each generated record has a name of its own). */
function entryOf(z: ZoneWorld, rec: Live): Record<string, unknown> | undefined {
  const rel = relative(rec.name, z.name);
  return z.records.find((e) => e.type === rec.type && relative(String(e.name), z.name) === rel);
}

/** A different value for one field of a record's value, as a PATCH body part. */
function valueEdit(r: Rng, rec: Live): { field: string; body: Record<string, unknown> } {
  const data = { ...(rec.data ?? {}) };
  const bump = (k: string) => ({ field: `data.${k}`, body: { data: { ...data, [k]: Number(data[k]) + 1 } } });
  const set = (k: string, v: unknown) => ({ field: `data.${k}`, body: { data: { ...data, [k]: v } } });
  switch (rec.type) {
    case 'A':
      return { field: 'content', body: { content: `198.51.100.${1 + Math.floor(r.next() * 250)}` } };
    case 'AAAA':
      return { field: 'content', body: { content: `2001:db8::${hex(r, 3)}:beef` } };
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return { field: 'content', body: { content: `edited-${hex(r, 4)}.example.org` } };
    case 'MX':
      return r.chance(0.5)
        ? { field: 'priority', body: { priority: Number(rec.priority) + 1 } }
        : { field: 'content', body: { content: `mx-${hex(r, 4)}.example.org` } };
    case 'TXT':
      return { field: 'content', body: { content: `edited ${hex(r, 6)}` } };
    case 'OPENPGPKEY':
      return { field: 'content', body: { content: b64(r, 40) } };
    case 'CAA':
      return r.chance(0.5) ? set('value', `edited-${hex(r, 4)}.example.net`) : set('flags', 1);
    case 'SRV':
      return r.pick([
        () => bump('weight'),
        () => bump('port'),
        () => set('target', `sip-${hex(r, 4)}.example.net`),
      ])();
    case 'SVCB':
    case 'HTTPS':
      return r.chance(0.5)
        ? bump('priority')
        : set('value', data.value === 'port=9443' ? 'alpn="h2"' : 'port=9443');
    case 'DS':
      return r.chance(0.5) ? bump('key_tag') : set('digest', hex(r, 64));
    case 'DNSKEY':
      return r.chance(0.5) ? set('flags', 256) : set('public_key', b64(r, 44));
    case 'URI':
      return r.pick([
        () => bump('weight'),
        () => set('target', `https://example.com/edited-${hex(r, 4)}`),
        () => ({ field: 'priority', body: { priority: Number(rec.priority) + 1 } }),
      ])();
    case 'NAPTR':
      return r.chance(0.5) ? bump('preference') : set('service', 'E2U+email');
    case 'SSHFP':
      return set('fingerprint', hex(r, 64));
    case 'TLSA':
    case 'SMIMEA':
      return r.chance(0.5) ? set('usage', 2) : set('certificate', hex(r, 64));
    case 'CERT':
      return r.chance(0.5) ? bump('key_tag') : set('certificate', b64(r, 60));
    default:
      throw new Error(`no value edit for ${rec.type}`);
  }
}

/** The same value in another spelling, which no plan may show as a change. */
function sameMeaning(r: Rng, rec: Live): { field: string; body: Record<string, unknown> } {
  const choices: (() => { field: string; body: Record<string, unknown> })[] = [
    () => ({ field: 'name', body: { name: String(rec.name).toUpperCase() } }),
  ];
  if (rec.type === 'TXT' && !String(rec.content).startsWith('"'))
    choices.push(() => ({ field: 'content', body: { content: `"${rec.content}"` } }));
  if (rec.type === 'AAAA') {
    const full = expandIpv6(String(rec.content));
    choices.push(() => ({ field: 'content', body: { content: r.chance(0.5) ? full : full.toUpperCase() } }));
  }
  if (['CNAME', 'MX', 'NS', 'PTR'].includes(rec.type))
    choices.push(() => ({ field: 'content', body: { content: `${String(rec.content).toUpperCase()}.` } }));
  if (Array.isArray(rec.tags) && rec.tags.length > 1)
    choices.push(() => ({ field: 'tags', body: { tags: [...rec.tags].reverse() } }));
  if (rec.comment === null || rec.comment === undefined)
    choices.push(() => ({ field: 'comment', body: { comment: '' } }));
  return r.pick(choices)();
}

/** An IPv6 address with every group written in full (four digits, no `::`). */
function expandIpv6(address: string): string {
  const [head, tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return groups.map((g) => g.padStart(4, '0')).join(':');
}

async function records(cf: Sdk, zoneId: string): Promise<Live[]> {
  const out: Live[] = [];
  for await (const rec of cf.dns.records.list({ zone_id: zoneId, per_page: 100 })) out.push(rec as Live);
  return out;
}

/** Whether purge deletes a record the SDK adds: not where the entry has an owner (it bears no marker) */
const purgesUnmarked = (z: ZoneWorld) => z.dnsPurge && z.owner === undefined;

/** The addresses of the records added beside a managed A record */
const BESIDE = '203.0.113.';
const isBeside = (rec: Live) => rec.type === 'A' && String(rec.content).startsWith(BESIDE);

/** One seeded edit of a record the file manages, or an add; `only` narrows the edits to pick from. */
export async function dnsEdit(
  cf: Sdk,
  r: Rng,
  z: ZoneWorld,
  zoneId: string,
  only?: readonly string[],
): Promise<Edit> {
  const live = await records(cf, zoneId);
  // a record added beside a managed one (another value) stays unmanaged where nothing purges
  const managed = live.filter((rec) => entryOf(z, rec) !== undefined && !isBeside(rec));
  const rec = r.pick(managed);
  const entry = entryOf(z, rec)!;
  const names = `${relative(rec.name, z.name)} ${String(rec.type).toLowerCase()}`;
  const what = r.pick(
    only ?? [
      'value',
      'value',
      'ttl',
      'proxied',
      'comment',
      'tags',
      'settings',
      'same',
      'same',
      'delete',
      'add',
      'add-beside',
      'rename',
    ],
  );
  const patch = async (body: Record<string, unknown>) =>
    cf.dns.records.edit(rec.id, { zone_id: zoneId, type: rec.type, name: rec.name, ...body } as any);
  switch (what) {
    case 'value': {
      const { field, body } = valueEdit(r, rec);
      await patch(body);
      return { label: `dns ${names}: ${field} -> ${JSON.stringify(body)}`, expect: names };
    }
    case 'ttl': {
      if (rec.proxied) break; // a proxied record's TTL is always Auto
      await patch({ ttl: rec.ttl === 7200 ? 600 : 7200 });
      return { label: `dns ${names}: ttl ${rec.ttl} -> other`, expect: names };
    }
    case 'proxied': {
      // documentation addresses may not be proxied; a CNAME to an outside host may
      if (rec.type !== 'CNAME') break;
      const proxied = !(entry.proxied ?? false);
      await patch({ proxied, ...(proxied ? { ttl: 1 } : {}) });
      return { label: `dns ${names}: proxied -> ${proxied}`, expect: names };
    }
    case 'comment': {
      const comment = `edited ${hex(r, 4)}`;
      await patch({ comment });
      return { label: `dns ${names}: comment -> "${comment}"`, expect: 'comment' in entry ? names : null };
    }
    case 'tags': {
      await patch({ tags: [`edited:${hex(r, 4)}`] });
      return { label: `dns ${names}: tags -> [edited:...]`, expect: 'tags' in entry ? names : null };
    }
    case 'settings': {
      // the file never sets `settings`: only the keys a file sets are managed
      if (rec.type !== 'CNAME') break;
      await patch({ settings: { flatten_cname: !rec.settings?.flatten_cname } });
      return {
        label: `dns ${names}: settings.flatten_cname flipped`,
        expect: 'settings' in entry ? names : null,
      };
    }
    case 'same': {
      const { field, body } = sameMeaning(r, rec);
      await patch(body);
      return { label: `dns ${names}: ${field} in another spelling ${JSON.stringify(body)}`, expect: null };
    }
    case 'rename': {
      // the file's name is gone (a create); where the zone purges, the new name is deleted: both
      // steps hold the old name, the new one starting with it
      const rel = relative(rec.name, z.name);
      await patch({ name: `${rel}-moved.${z.name}` });
      return { label: `dns ${names}: renamed to ${rel}-moved`, expect: rel };
    }
    case 'delete':
      await cf.dns.records.delete(rec.id, { zone_id: zoneId });
      return { label: `dns ${names}: deleted`, expect: names };
    case 'add': {
      const name = `added-${hex(r, 4)}`;
      await cf.dns.records.create({
        zone_id: zoneId,
        type: 'TXT',
        name: `${name}.${z.name}`,
        content: 'added',
        ttl: 1,
      });
      return {
        label: `dns add ${name} TXT (purge ${z.dnsPurge}, owner ${z.owner ?? 'none'})`,
        expect: purgesUnmarked(z) ? `${name} txt` : null,
      };
    }
  }
  // a second record in a managed set (a name and type the file names, another value); when an
  // earlier edit of the round took the A record away, the same as 'add' elsewhere
  const a = managed.find((x) => x.type === 'A');
  if (a === undefined) return dnsEdit(cf, r, z, zoneId, ['add']);
  const content = `${BESIDE}${1 + Math.floor(r.next() * 250)}`;
  await cf.dns.records.create({ zone_id: zoneId, type: 'A', name: a.name, content, ttl: 1 } as any);
  const aNames = `${relative(a.name, z.name)} a`;
  return {
    label: `dns add ${aNames} ${content} beside the managed one (purge ${z.dnsPurge}, owner ${z.owner ?? 'none'})`,
    expect: purgesUnmarked(z) ? aNames : null,
  };
}

/** Edits of records the file does not manage: another owner's (no purge), ignored names. */
export async function dnsUnmanagedEdit(cf: Sdk, r: Rng, z: ZoneWorld, zoneId: string): Promise<Edit> {
  const live = await records(cf, zoneId);
  const foreign = r.pick(
    live.filter((rec) => /^(foreign|ignored)-/.test(relative(rec.name, z.name)) || isBeside(rec)),
  );
  const names = `${relative(foreign.name, z.name)} ${foreign.type}`;
  if (isBeside(foreign)) {
    await cf.dns.records.edit(foreign.id, {
      zone_id: zoneId,
      type: 'A',
      ttl: foreign.ttl === 7200 ? 600 : 7200,
    } as any);
    return {
      label: `dns unmanaged ${names} ${foreign.content} beside a managed one: ttl edited`,
      expect: null,
    };
  }
  if (r.chance(0.5)) {
    await cf.dns.records.edit(foreign.id, {
      zone_id: zoneId,
      type: foreign.type,
      content: `edited ${hex(r, 6)}`,
    } as any);
    return { label: `dns unmanaged ${names}: content edited`, expect: null };
  }
  await cf.dns.records.delete(foreign.id, { zone_id: zoneId });
  const name = `${relative(foreign.name, z.name).split('-')[0]}-${hex(r, 4)}`;
  await cf.dns.records.create({
    zone_id: zoneId,
    type: 'TXT',
    name: `${name}.${z.name}`,
    content: 'again',
    ttl: 1,
  });
  return { label: `dns unmanaged ${names}: deleted, ${name} TXT added`, expect: null };
}
