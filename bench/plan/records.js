// Shared by the plan bench and its RSS child: a zone's records, generated the same way on both
// sides, as API bodies (for seeding) and as the desired state the reconciler plans from.

/** The i-th record: A, AAAA, TXT and CNAME in turn, all distinct, all valid. */
export function record(i, zone) {
  const n = `h${i}`;
  switch (i % 4) {
    case 0:
      return {
        name: `${n}.${zone}`,
        type: 'A',
        content: `198.51.100.${(i % 250) + 1}`,
        ttl: 300,
        proxied: false,
      };
    case 1:
      return {
        name: `${n}.${zone}`,
        type: 'AAAA',
        content: `2001:db8::${(i >> 16) + 1}:${(i & 0xffff).toString(16)}`,
        ttl: 1,
        proxied: false,
      };
    case 2:
      return { name: `${n}.${zone}`, type: 'TXT', content: `record ${i}`, ttl: 3600, proxied: false };
    default:
      return {
        name: `${n}.${zone}`,
        type: 'CNAME',
        content: `target${i}.example.net`,
        ttl: 1,
        proxied: false,
      };
  }
}

/**
 * The desired state (the loader's output shape) of one zone with `count` records. The records go
 * through JSON once so that their strings are flat, as the loader leaves them: a template literal
 * makes a rope, and the planner's first look at each name would pay to flatten it, a cost that
 * belongs to this generator and that no CLI run has.
 */
export function desiredState(zone, account, count) {
  const built = [];
  for (let i = 0; i < count; i++) {
    const r = record(i, zone);
    built.push({
      name: r.name,
      type: r.type,
      content: r.content,
      ttl: r.ttl,
      proxied: r.proxied,
      path: `r${i}`,
    });
  }
  const records = JSON.parse(JSON.stringify(built));
  return {
    version: 1,
    source: { files: ['bench.yaml'], sha256: 'bench' },
    accounts: [],
    zones: [{ name: zone, account, path: 'zones[0]', dns: { records } }],
    locations: new Map(),
  };
}
