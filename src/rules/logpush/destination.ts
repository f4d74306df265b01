/**
 * `destination_conf` of a Logpush job: a URI naming where logs go, with the destination's settings
 * as query parameters (`s3://bucket/logs?region=us-east-1`). Destinations often carry credentials
 * (access keys, SAS tokens, authorization headers), so no message here ever quotes the value, and
 * `maskDestination` gives a form that is safe to print.
 */
import { SECRET_PARAM } from '../secret-names.js';
import type { Violation } from './violation.js';

export const MAX_DESTINATION_CONF_LENGTH = 4096;

/**
 * Schemes whose destination must prove ownership before a job can push to it: the API writes a
 * challenge file into the bucket/container and the job is created with its content
 * (`ownership_challenge`). Destinations that carry their own credentials (r2 with keys, HTTP
 * endpoints, Datadog, Splunk) do not need one.
 */
export const OWNERSHIP_CHALLENGE_SCHEMES: ReadonlySet<string> = new Set(['s3', 'gs', 'azure']);

/** Schemes the local API knows; others are accepted as long as they are well-formed URIs. */
export const KNOWN_DESTINATION_SCHEMES = ['s3', 'gs', 'azure', 'r2', 'https', 'datadog', 'splunk', 'sumo'];

/** Query parameters that are not secret and may be shown as they are. */
const PUBLIC_PARAMS = new Set([
  'region',
  'endpoint',
  'sse',
  'account-id',
  'host',
  'channel',
  'insecure-skip-verify',
  // Datadog, Splunk and Sumo Logic destinations: labels of the logs, never credentials
  'service',
  'ddsource',
  'ddtags',
  'tags',
  'sourcetype',
  'index',
  'source',
]);

/**
 * A path segment that is a credential: collector URLs carry their token in the path
 * (`sumo://.../receiver/v1/http/<token>`, webhook URLs). A generated token mixes letters and digits
 * throughout; a path word does not, even a long one with a year in it (`cloudflare-logs-2024`): 20
 * or more characters with at least 3 places where a letter and a digit meet.
 */
export function isTokenSegment(segment: string): boolean {
  if (segment.length < 20 || !/^[A-Za-z0-9_\-~.%+=]+$/.test(segment)) return false;
  let meetings = 0;
  for (let i = 1; i < segment.length; i++) {
    const a = segment[i - 1];
    const b = segment[i];
    if ((/\d/.test(a) && /[A-Za-z]/.test(b)) || (/[A-Za-z]/.test(a) && /\d/.test(b))) meetings++;
  }
  return meetings >= 3;
}

/**
 * Storage destinations (buckets and containers) hold a prefix in their path, never a credential:
 * their credentials are query parameters. Only other schemes are searched for path tokens.
 */
const STORAGE_SCHEMES: ReadonlySet<string> = new Set(['s3', 'gs', 'azure', 'r2']);

/** The path with its token segments replaced by what `replace` returns for each. */
export function replaceTokenSegments(
  scheme: string,
  path: string,
  replace: (segment: string) => string,
): string {
  if (STORAGE_SCHEMES.has(scheme.toLowerCase())) return path;
  return path
    .split('/')
    .map((seg) => (isTokenSegment(seg) ? replace(seg) : seg))
    .join('/');
}

/** The token segments of a destination's path (those replaceTokenSegments would replace). */
function tokenSegments(d: ParsedDestination): string[] {
  const found: string[] = [];
  replaceTokenSegments(d.scheme, d.path, (seg) => (found.push(seg), seg));
  return found;
}

export interface ParsedDestination {
  scheme: string;
  /** bucket, container or host */
  authority: string;
  path: string;
  params: URLSearchParams;
}

/** Parses a destination URI; undefined when it is not one (no scheme, or not parseable). */
export function parseDestination(conf: string): ParsedDestination | undefined {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?$/i.exec(conf);
  if (!m) return undefined;
  return {
    scheme: m[1].toLowerCase(),
    authority: m[2],
    path: m[3],
    params: new URLSearchParams(m[4] ?? ''),
  };
}

/**
 * What ownership is proven for: the destination without its query (credentials, options), since
 * the same bucket/path is often named with different credentials or options. The local API keys
 * its challenges by it, and a rehearsal uses it to tell which destinations the live jobs prove.
 */
export function ownershipKey(destination: string): string {
  const q = destination.indexOf('?');
  return q < 0 ? destination : destination.slice(0, q);
}

/** True when creating a job for this destination needs a valid `ownership_challenge`. */
export function needsOwnershipChallenge(conf: string): boolean {
  const parsed = parseDestination(conf);
  return parsed !== undefined && OWNERSHIP_CHALLENGE_SCHEMES.has(parsed.scheme);
}

/**
 * Checks a destination_conf. `path` names the field in messages. The value itself is never quoted
 * in a message, because it may hold credentials.
 */
export function validateDestinationConf(conf: unknown, path = 'destination_conf'): Violation[] {
  if (typeof conf !== 'string' || conf.trim() === '') {
    return [
      { path, message: 'is required: the URI of the destination, e.g. s3://bucket/logs?region=us-east-1' },
    ];
  }
  if (conf.length > MAX_DESTINATION_CONF_LENGTH) {
    return [
      { path, message: `is ${conf.length} characters; at most ${MAX_DESTINATION_CONF_LENGTH} are allowed` },
    ];
  }
  if (/\s/.test(conf)) return [{ path, message: 'must not contain whitespace' }];
  const parsed = parseDestination(conf);
  if (!parsed) {
    return [{ path, message: 'is not a URI of the form scheme://target[/path][?parameters]' }];
  }
  const out: Violation[] = [];
  const { scheme, authority, params } = parsed;
  if (scheme === 'http') {
    out.push({ path, message: 'HTTP destinations must use https://' });
  }
  if (['s3', 'gs', 'azure', 'r2', 'https'].includes(scheme) && authority === '') {
    out.push({
      path,
      message: `${scheme === 'gs' ? 'a' : 'an'} ${scheme}:// destination must name its ${scheme === 'https' ? 'host' : 'bucket'}`,
    });
  }
  if (scheme === 's3' && !params.get('region')) {
    out.push({ path, message: 'an S3 destination must include its region, e.g. ?region=us-east-1' });
  }
  if (scheme === 'r2' && !params.get('account-id')) {
    out.push({ path, message: 'an R2 destination must include account-id' });
  }
  return out;
}

/**
 * The destination with every non-public query value and any user info replaced by `[REDACTED]`, for
 * logs and plans. An unparseable value is masked whole. This masks more than `destinationSecrets`
 * registers: an unknown parameter may hold something private, and hiding it in the one string that
 * shows it costs nothing.
 */
export function maskDestination(conf: string): string {
  const parsed = parseDestination(conf);
  if (!parsed) return '[REDACTED]';
  const authority = parsed.authority.includes('@')
    ? `[REDACTED]@${parsed.authority.slice(parsed.authority.lastIndexOf('@') + 1)}`
    : parsed.authority;
  const query = [...parsed.params.entries()]
    .map(([k, v]) => `${k}=${PUBLIC_PARAMS.has(k.toLowerCase()) ? v : '[REDACTED]'}`)
    .join('&');
  const path = replaceTokenSegments(parsed.scheme, parsed.path, () => '[REDACTED]');
  return `${parsed.scheme}://${authority}${path}${query ? `?${query}` : ''}`;
}

/**
 * Every part `maskDestination` hides (non-public query values, user info), so a plan can show a
 * digest of them: a change to any hidden part must still show as a change.
 */
export function maskedDestinationParts(conf: string): string[] {
  const parsed = parseDestination(conf);
  if (!parsed) return [conf];
  const out: string[] = [];
  for (const [k, v] of parsed.params.entries()) if (!PUBLIC_PARAMS.has(k.toLowerCase()) && v) out.push(v);
  if (parsed.authority.includes('@')) out.push(parsed.authority.slice(0, parsed.authority.lastIndexOf('@')));
  out.push(...tokenSegments(parsed));
  return out;
}

/**
 * Parts of a SAS (Azure) that describe the signature without being one: version, start, expiry,
 * permissions, resource types. `sig` is the credential. They are dates and short words, so treating
 * them as secrets would mask every matching timestamp in the output.
 */
const SAS_METADATA = new Set(['sv', 'st', 'se', 'sp', 'sr', 'spr', 'srt', 'ss', 'sip', 'si']);

/** Headers (`header_<Name>`) that configure the request and never authenticate it. */
const PLAIN_HEADERS = new Set([
  'content-type',
  'content-encoding',
  'accept',
  'accept-encoding',
  'user-agent',
]);

/** Signatures beyond SECRET_PARAM's exact `sig` (`X-Amz-Signature`, `urlsig`). */
const CREDENTIAL_PARAM = /^(.*sig|.*signature)$/i;

/**
 * A value that looks like a generated credential whatever its parameter is called: 16 or more
 * characters of the alphabets keys are written in, letters and digits both present, and no dot (a
 * host name, `example.com`) or space (a label). `tag=example.com` is not one; an Azure function
 * `code=` or a key under a name nobody listed is.
 */
function looksGenerated(value: string): boolean {
  return (
    value.length >= 16 && /^[A-Za-z0-9_\-+/=%~]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value)
  );
}

/**
 * Whether a query parameter's value is a credential. Only such values are registered with the
 * process-wide redactor, which replaces them in every output: registering an ordinary value
 * (`tag=example.com`, `sourcetype=logpush`) would mask zone names, kind names and file names too.
 */
export function isCredentialParam(name: string): boolean {
  const n = name.toLowerCase();
  if (n.startsWith('header_')) return !PLAIN_HEADERS.has(n.slice('header_'.length));
  if (SAS_METADATA.has(n) || PUBLIC_PARAMS.has(n)) return false;
  return SECRET_PARAM.test(n) || CREDENTIAL_PARAM.test(n);
}

/**
 * The credentials of a destination (values of parameters that look secret, the password of
 * `user:password@`, a bare user info long enough to be a token), so a caller can register them with
 * the process-wide redactor before anything is printed. An unparseable value is returned whole.
 */
export function destinationSecrets(conf: string): string[] {
  const parsed = parseDestination(conf);
  if (!parsed) return [conf];
  const out: string[] = [];
  for (const [k, v] of parsed.params.entries()) {
    if (!v) continue;
    const lower = k.toLowerCase();
    // a parameter nobody listed is a credential when its value looks generated
    const unlisted = !PUBLIC_PARAMS.has(lower) && !SAS_METADATA.has(lower) && !lower.startsWith('header_');
    if (isCredentialParam(k) || (unlisted && looksGenerated(v))) out.push(v);
  }
  out.push(...tokenSegments(parsed));
  const at = parsed.authority.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = parsed.authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon >= 0) {
      // the password; the whole `user:password` too, so it is masked as one piece
      out.push(userinfo.slice(colon + 1), userinfo);
    } else if (userinfo.length >= 16) {
      // `https://<api key>@host`: a bare user info this long is a token, not a user name
      out.push(userinfo);
    }
  }
  return out;
}
