/**
 * The `value` of a Page Shield (CSP) policy: Content-Security-Policy directives, e.g.
 * `script-src 'self' https://cdn.example.com https://js.example.com/app.js 'nonce-abc='`.
 *
 * Checked: directive names, no duplicates, and for fetch directives every source: keyword sources
 * (quoted), nonce-/hash- sources, scheme sources (`https:`), host sources (`*.example.com:443/path`)
 * and full URLs. A problem is reported with the directive and source it is in.
 */

/** Directives that take a source list. */
export const FETCH_DIRECTIVES = new Set([
  'default-src', 'script-src', 'script-src-elem', 'script-src-attr', 'style-src', 'style-src-elem',
  'style-src-attr', 'img-src', 'connect-src', 'font-src', 'frame-src', 'child-src', 'media-src',
  'object-src', 'manifest-src', 'worker-src', 'prefetch-src', 'fenced-frame-src', 'base-uri',
  'form-action', 'frame-ancestors', 'navigate-to',
]); // prettier-ignore

/** Other directives and what they take. */
const OTHER_DIRECTIVES: Record<string, 'none' | 'urls' | 'tokens' | 'token'> = {
  'upgrade-insecure-requests': 'none',
  'block-all-mixed-content': 'none',
  'report-uri': 'urls',
  'report-to': 'token',
  sandbox: 'tokens',
  'require-trusted-types-for': 'tokens',
  'trusted-types': 'tokens',
  webrtc: 'token',
};

export const CSP_KEYWORDS = [
  "'self'", "'none'", "'unsafe-inline'", "'unsafe-eval'", "'strict-dynamic'", "'report-sample'",
  "'unsafe-hashes'", "'wasm-unsafe-eval'", "'inline-speculation-rules'",
]; // prettier-ignore

const HASH_OR_NONCE = /^'(nonce|sha256|sha384|sha512)-[A-Za-z0-9+/\-_]+={0,2}'$/;
const SCHEME_SOURCE = /^[a-z][a-z0-9+.-]*:$/i;
const HOST = /^(\*|(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/i;

/** Checks a CSP directive string; each returned message names the directive and source. */
export function checkCspValue(value: string): string[] {
  const problems: string[] = [];
  if (value.trim() === '') return ['is empty; it must hold at least one directive such as script-src'];
  const seen = new Set<string>();
  const directives = value.split(';').map((d) => d.trim());
  directives.forEach((text, i) => {
    if (text === '') {
      // a trailing ";" is fine, an empty directive in the middle is a typo
      if (i !== directives.length - 1) problems.push(`directive ${i + 1} is empty (two ";" in a row)`);
      return;
    }
    const [rawName, ...sources] = text.split(/\s+/);
    const name = rawName.toLowerCase();
    const where = `directive ${i + 1} (${rawName})`;
    if (!FETCH_DIRECTIVES.has(name) && !(name in OTHER_DIRECTIVES)) {
      problems.push(`${where}: "${rawName}" is not a CSP directive`);
      return;
    }
    if (seen.has(name)) problems.push(`${where}: ${name} appears twice; browsers ignore the second`);
    seen.add(name);
    if (FETCH_DIRECTIVES.has(name)) problems.push(...checkSourceList(sources, where));
    else problems.push(...checkOther(OTHER_DIRECTIVES[name], sources, where));
  });
  return problems;
}

function checkSourceList(sources: string[], where: string): string[] {
  if (sources.length === 0) return [`${where}: needs at least one source (or 'none')`];
  const problems: string[] = [];
  if (sources.some((s) => s.toLowerCase() === "'none'") && sources.length > 1) {
    problems.push(`${where}: 'none' must be the only source`);
  }
  for (const source of sources) {
    const why = checkSource(source);
    if (why) problems.push(`${where}: source "${source}" ${why}`);
  }
  return problems;
}

/** Why a source expression is invalid, or undefined when it is valid. */
export function checkSource(source: string): string | undefined {
  const lower = source.toLowerCase();
  if (source.startsWith("'")) {
    if (CSP_KEYWORDS.includes(lower) || HASH_OR_NONCE.test(source)) return undefined;
    return `is not a keyword (${CSP_KEYWORDS.join(' ')}) nor a 'nonce-…' or 'sha256-…' source`;
  }
  const bareKeyword = CSP_KEYWORDS.find((k) => k.slice(1, -1) === lower);
  if (bareKeyword) return `must be quoted: ${bareKeyword}`;
  if (/^(nonce|sha256|sha384|sha512)-/.test(lower)) return "must be quoted, e.g. 'nonce-…'";
  if (SCHEME_SOURCE.test(source)) return undefined;
  return checkHostSource(source);
}

/** Host sources: [scheme://]host[:port][/path], where host may start with `*.`; or a full URL. */
function checkHostSource(source: string): string | undefined {
  const m =
    /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/:?#]+|\[[^\]]+\])(?::(\*|[0-9]{1,5}))?(\/[^?#]*)?(\?[^#]*)?$/i.exec(
      source,
    );
  if (!m) return 'is not a host, scheme or URL source';
  const [, scheme, host, port] = m;
  if (scheme && !/^(https?|wss?|ftp|blob|data|filesystem)$/i.test(scheme)) {
    return `uses the scheme "${scheme}", which a browser does not load scripts from`;
  }
  if (!HOST.test(host)) return `has an invalid host "${host}"`;
  if (port && port !== '*' && Number(port) > 65535) return `has an invalid port ${port}`;
  return undefined;
}

function checkOther(kind: 'none' | 'urls' | 'tokens' | 'token', values: string[], where: string): string[] {
  if (kind === 'none') return values.length > 0 ? [`${where}: takes no value`] : [];
  if (values.length === 0) return [`${where}: needs a value`];
  if (kind === 'token' && values.length > 1) return [`${where}: takes a single value`];
  if (kind === 'urls') {
    return values
      .filter((v) => !/^(https?:\/\/[^\s]+|\/[^\s]*)$/i.test(v))
      .map((v) => `${where}: "${v}" is not a URL or a path`);
  }
  return [];
}
