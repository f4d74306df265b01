/**
 * One-line YAML flow mappings for long lists (a zone's 10,000 records), written directly: the
 * `yaml` package's document model costs about 0.1 ms per node, which would make the export of a
 * large zone take many times longer than reading it. Scalars are written plain only when that is
 * unambiguous in every YAML reader (no indicator characters, nothing that reads as a number,
 * boolean, null or date, YAML 1.1 included); otherwise single-quoted, or double-quoted (JSON
 * escapes are valid YAML) when they hold control characters. The tests parse the output back.
 */

const SAFE = /^[A-Za-z0-9_./=+][A-Za-z0-9_./=+\-;:@*()'"% ]*$/;
const NUMBER =
  /^[-+]?(\.\d+|\d[\d_]*(\.\d*)?)([eE][-+]?\d+)?$|^0x[0-9a-fA-F_]+$|^0o?[0-7_]+$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/;
const SEXAGESIMAL = /^[-+]?\d[\d_]*(:[0-5]?\d)+(\.\d*)?$/;
const WORD = /^(y|n|yes|no|on|off|true|false|null|~)$/i;
const DATE = /^\d{4}-\d\d?-\d\d?/;
const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/;

export function isPlainSafe(s: string): boolean {
  if (s === '' || !SAFE.test(s)) return false;
  if (s.endsWith(' ') || s.endsWith(':') || s.includes(': ') || s.includes(' #') || s.includes('  '))
    return false;
  return !(NUMBER.test(s) || SEXAGESIMAL.test(s) || WORD.test(s) || DATE.test(s));
}

function quote(s: string): string {
  if (isPlainSafe(s)) return s;
  if (CONTROL.test(s)) return JSON.stringify(s);
  return `'${s.replace(/'/g, "''")}'`;
}

/** Keys and short values repeat a lot (`name`, `type`, `A`, `auto`): their form is remembered. */
const memo = new Map<string, string>();
const MEMO_LIMIT = 20_000;

export function flowScalar(s: string): string {
  if (s.length > 24) return quote(s);
  let q = memo.get(s);
  if (q === undefined) {
    q = quote(s);
    if (memo.size < MEMO_LIMIT) memo.set(s, q);
  }
  return q;
}

/** A value as YAML flow text: maps as `{ k: v }`, lists as `[ a, b ]`. */
export function flowValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return flowScalar(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : flowScalar(String(v));
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[ ${v.map(flowValue).join(', ')} ]`;
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([k, x]) => `${flowScalar(k)}: ${flowValue(x)}`).join(', ')} }`;
}

/**
 * The items of a list, one line each at `indent` spaces (`- { ... }`), with a blank line before the
 * items whose index is in `spaceBefore`.
 */
export function flowLines(items: unknown[], indent: number, spaceBefore: ReadonlySet<number>): string {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  items.forEach((item, i) => {
    if (spaceBefore.has(i)) out.push('');
    out.push(`${pad}- ${flowValue(item)}`);
  });
  return out.join('\n');
}
