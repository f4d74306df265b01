/**
 * The one description of each DNS record type (after octoDNS's `record/<type>.py`): what its value
 * is (the `content` it takes, or the `data` fields of a structured type, in zone-file order),
 * whether it can be proxied, where it carries a priority, and how it is named in messages. The
 * record fields every type shares beside its value (`comment`, `tags`, `settings`) are described
 * once in ./fields.ts. Everything else is derived from these two tables: the type lists of
 * ./types.ts, the value checks of ./content.ts, the kind's JSON Schema, the planner's normal form
 * and field list, the fast checks (certify), export, and the local API's record body. How to add a
 * type or a field: docs/kinds/dns.md, "Record types".
 */

/** How one `data` field is written and checked (./content.ts checkField). */
export type DataFieldKind = 'u8' | 'u16' | 'text' | 'quoted' | 'hex' | 'base64' | 'host' | 'caa-tag';

/**
 * How a `content`-only type's value is checked and normalised (./content.ts checkValue):
 * `ipv4`/`ipv6` an address in canonical form; `alias` a host name that is not the record's own
 * name (CNAME); `mail` a host name or `.` (the null MX); `host` a host name; `base64` base64
 * without blanks; `text` free text up to 2,048 characters, kept as sent.
 */
export type ContentKind = 'ipv4' | 'ipv6' | 'alias' | 'mail' | 'host' | 'base64' | 'text';

export interface RecordTypeModel {
  /** the indefinite article for messages ("an MX record", "a CNAME record") */
  readonly article: 'a' | 'an';
  /** a `content`-only type: how its content is checked (structured types give `data` instead) */
  readonly content?: ContentKind;
  /** a structured type: its `data` fields in zone-file order (its `content` is their text) */
  readonly data?: readonly (readonly [string, DataFieldKind])[];
  /** may be proxied (and then named by the host-name rules) */
  readonly proxiable?: boolean;
  /** `beside`: `priority` next to the value (MX, URI); `in-data`: inside `data` (SRV) */
  readonly priority?: 'beside' | 'in-data';
  /** created and kept by the service: a file or request naming it is told so */
  readonly serviceManaged?: boolean;
  /**
   * a plain type: the fast checks (src/kinds/dns/certify.ts) may certify its records without the
   * general rules, which they do only for the `content` kinds they scan
   */
  readonly plain?: boolean;
}

const ADDRESS = { proxiable: true, plain: true } as const;

/**
 * Every type, in the order messages and the schema list them: the 20 the spec names plus the real
 * API's OPENPGPKEY. SOA is here only so that a file or a request naming it is told the service
 * owns it (the record list never holds one); SPF is not (./types.ts RETIRED_TYPES).
 */
export const RECORD_MODEL = {
  A: { article: 'an', content: 'ipv4', ...ADDRESS },
  AAAA: { article: 'an', content: 'ipv6', ...ADDRESS },
  CNAME: { article: 'a', content: 'alias', ...ADDRESS },
  MX: { article: 'an', content: 'mail', priority: 'beside', plain: true },
  TXT: { article: 'a', content: 'text', plain: true },
  CAA: {
    article: 'a',
    data: [
      ['flags', 'u8'],
      ['tag', 'caa-tag'],
      ['value', 'quoted'],
    ],
  },
  SRV: {
    article: 'an',
    priority: 'in-data',
    data: [
      ['priority', 'u16'],
      ['weight', 'u16'],
      ['port', 'u16'],
      ['target', 'host'],
    ],
  },
  SVCB: {
    article: 'an',
    data: [
      ['priority', 'u16'],
      ['target', 'host'],
      ['value', 'text'],
    ],
  },
  HTTPS: {
    article: 'an',
    data: [
      ['priority', 'u16'],
      ['target', 'host'],
      ['value', 'text'],
    ],
  },
  PTR: { article: 'a', content: 'host', plain: true },
  SOA: { article: 'an', content: 'text', serviceManaged: true },
  NS: { article: 'an', content: 'host', plain: true },
  DS: {
    article: 'a',
    data: [
      ['key_tag', 'u16'],
      ['algorithm', 'u8'],
      ['digest_type', 'u8'],
      ['digest', 'hex'],
    ],
  },
  DNSKEY: {
    article: 'a',
    data: [
      ['flags', 'u16'],
      ['protocol', 'u8'],
      ['algorithm', 'u8'],
      ['public_key', 'base64'],
    ],
  },
  URI: {
    article: 'a',
    priority: 'beside',
    data: [
      ['weight', 'u16'],
      ['target', 'quoted'],
    ],
  },
  NAPTR: {
    article: 'a',
    data: [
      ['order', 'u16'],
      ['preference', 'u16'],
      ['flags', 'quoted'],
      ['service', 'quoted'],
      ['regex', 'quoted'],
      ['replacement', 'host'],
    ],
  },
  SSHFP: {
    article: 'an',
    data: [
      ['algorithm', 'u8'],
      ['type', 'u8'],
      ['fingerprint', 'hex'],
    ],
  },
  TLSA: {
    article: 'a',
    data: [
      ['usage', 'u8'],
      ['selector', 'u8'],
      ['matching_type', 'u8'],
      ['certificate', 'hex'],
    ],
  },
  SMIMEA: {
    article: 'an',
    data: [
      ['usage', 'u8'],
      ['selector', 'u8'],
      ['matching_type', 'u8'],
      ['certificate', 'hex'],
    ],
  },
  CERT: {
    article: 'a',
    data: [
      ['type', 'u16'],
      ['key_tag', 'u16'],
      ['algorithm', 'u8'],
      ['certificate', 'base64'],
    ],
  },
  OPENPGPKEY: { article: 'an', content: 'base64' },
} as const satisfies Record<string, RecordTypeModel>;

export type RecordType = keyof typeof RECORD_MODEL;

/** The model of a type, or undefined for a name that is none (compare upper case). */
export function modelOf(type: string): RecordTypeModel | undefined {
  return Object.prototype.hasOwnProperty.call(RECORD_MODEL, type)
    ? (RECORD_MODEL as Record<string, RecordTypeModel>)[type]
    : undefined;
}

const MODELS = Object.entries(RECORD_MODEL) as [RecordType, RecordTypeModel][];

/** The types whose model says `test`, as a set of type names. */
export function typesWhere(test: (m: RecordTypeModel) => boolean): ReadonlySet<string> {
  return new Set(MODELS.filter(([, m]) => test(m)).map(([t]) => t));
}

/**
 * What an editor and the schema say of each `data` field, by name (the same name means the same
 * thing in every type that has it).
 */
export const DATA_FIELD_HELP: Readonly<Record<string, string>> = {
  priority: 'lower is preferred (HTTPS/SVCB: 0 is alias mode)',
  weight: 'relative weight among records of the same priority',
  port: 'port of the service',
  target: 'host name (`.` for none / the owner name); URI: the target URI',
  flags: 'flags',
  tag: 'property: issue, issuewild, iodef, ...',
  value: 'CAA: e.g. the CA domain; HTTPS/SVCB: service parameters such as `alpn="h3,h2"`',
  key_tag: 'key tag',
  algorithm: 'algorithm number',
  digest_type: 'digest type, e.g. 2 for SHA-256',
  digest: 'digest, hex',
  protocol: 'always 3',
  public_key: 'public key, base64',
  order: 'order',
  preference: 'preference',
  service: 'service, e.g. `E2U+sip`',
  regex: 'substitution expression',
  replacement: 'replacement name, or `.`',
  type: 'type number',
  fingerprint: 'fingerprint, hex',
  usage: 'certificate usage',
  selector: 'selector',
  matching_type: 'matching type',
  certificate: 'certificate data',
};
