/**
 * Warnings about names that are valid but almost surely not what was meant (octoDNS and
 * DNSControl warn about the same two). A record's name is relative to its zone unless it ends in
 * the zone or a dot, so `www.acme.org` in zone `acme.com` is `www.acme.org.acme.com`; and a CNAME
 * target is always a full name, so `content: www` points at the one-label name `www`, not at
 * `www.acme.com`. Both are kept as written (they are legal, and may be meant): the warning says
 * how to write the other reading, and how to write this one so it stays silent. docs/kinds/dns.md.
 */
import type { ValidateContext } from '../../core/kind.js';

type Raw = Record<string, unknown>;

/**
 * Top-level domains a relative name hardly ever ends in by intent: the generic ones and the
 * largest country ones. The zone's own is added per zone (`x.acme.com` in `acme.com.au`).
 */
const COMMON_TLDS = new Set(
  (
    'com net org info biz io dev app co me ai xyz online site cloud tech shop ' +
    'uk de fr nl eu us ca au jp ch at be es it se no dk fi pl cz ru br in cn nz ie pt'
  ).split(' '),
);

/**
 * A name written relative to the zone, lower-case, or undefined for the apex and full names
 * (`dotZone`: the zone's name after a dot, made once per zone rather than once per name).
 */
function relativeWritten(name: string, zone: string, dotZone: string): string | undefined {
  const n = name.trim().toLowerCase();
  if (n === '' || n === '@' || n.endsWith('.') || n === zone || n.endsWith(dotZone)) return undefined;
  return n;
}

/**
 * Warns, at the key (paths relative to the zone's `dns`), about the names above, in two steps:
 * validate.ts's one pass over the records gathers what the hints need (`see`, record by record),
 * and `report` then warns; the hints make no pass of their own.
 */
export class NameHints {
  private readonly z: string;
  private readonly dotZ: string;
  /**
   * The names the file gives relatively, with a dot: a CNAME target with a dot equal to one of
   * them was meant as that record (a target without one is warned about whatever the names). Only
   * a name with a dot can be one of these or get the name's warning, and most names have none
   * (`www`, `mail`): they are looked at no further.
   */
  private readonly relativeNames = new Set<string>();
  /** the records either hint may be about, in order (a CNAME, or a relative name with a dot) */
  private readonly candidates: number[] = [];
  /** each candidate's relative name with a dot (undefined for a CNAME without one) */
  private readonly dottedNames: (string | undefined)[] = [];

  constructor(zone: string) {
    this.z = zone.toLowerCase().replace(/\.$/, '');
    this.dotZ = '.' + this.z;
  }

  /** Notes the record at `index` if a hint may be about it. */
  see(raw: Raw, index: number): void {
    const { name } = raw;
    const n =
      typeof name === 'string' && name.includes('.') ? relativeWritten(name, this.z, this.dotZ) : undefined;
    if (n !== undefined) this.relativeNames.add(n);
    if (n !== undefined || raw.type === 'CNAME') {
      this.candidates.push(index);
      this.dottedNames.push(n);
    }
  }

  /** Warns about the records seen (`records`: the same list, by the same indexes). */
  report(records: unknown[], ctx: ValidateContext): void {
    const { candidates, z } = this;
    if (candidates.length === 0) return;
    const tlds = new Set([...COMMON_TLDS, z.slice(z.lastIndexOf('.') + 1)]);
    for (let k = 0; k < candidates.length; k++) {
      const i = candidates[k]!;
      const n = this.dottedNames[k];
      if (n !== undefined) nameHint(n, z, tlds, i, ctx);
      cnameHint(records[i] as Raw, z, this.dotZ, this.relativeNames, i, ctx);
    }
  }
}

/** `www.acme.org` in `acme.com`: a relative name (`n`, with a dot) that ends in what looks like another domain. */
function nameHint(n: string, zone: string, tlds: Set<string>, index: number, ctx: ValidateContext): void {
  if (!tlds.has(n.slice(n.lastIndexOf('.') + 1))) return;
  ctx.warn(
    `records[${index}].name`,
    `${n} looks like a name in another domain, but a name is relative to its zone: this record is ` +
      `${n}.${zone}; if that is meant, write it in full (\`${n}.${zone}\`), otherwise move the record ` +
      `to the zone of ${n}`,
  );
}

/** `content: www` on a CNAME: a target is a full name, so this one is the one-label name `www`. */
function cnameHint(
  raw: Raw,
  zone: string,
  dotZone: string,
  relativeNames: Set<string>,
  index: number,
  ctx: ValidateContext,
): void {
  if (raw.type !== 'CNAME' || typeof raw.content !== 'string') return;
  // a target with a dot is warned about only as one of the file's names: when it has none with a
  // dot, no such target is (most CNAMEs point out of the zone: nothing is made of their target)
  if (relativeNames.size === 0 && raw.content.includes('.')) return;
  const target = raw.content.trim().toLowerCase();
  if (target === '' || target.endsWith('.') || target === zone || target.endsWith(dotZone)) return;
  if (target.includes('.') && !relativeNames.has(target)) return;
  ctx.warn(
    `records[${index}].content`,
    `${target} looks like a name of this zone, but a CNAME target is a full name: this record points ` +
      `at ${target} itself, not at ${target}.${zone}; write \`${target}.${zone}\` to point in the zone, ` +
      `or \`${target}.\` to keep the name as it is`,
  );
}
