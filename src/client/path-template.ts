/**
 * Turns a concrete request path into the shape that error messages and log lines show, so that
 * `POST /zones/023e105f4ecef8ad9ca31a8372d0c353/dns_records` reads `POST /zones/:id/dns_records`.
 * Ids are noise in a one-line message, and the same failure on many objects then reads the same.
 */

import { redact, redactUrl } from '../redact.js';
import { ID32_ANY_CASE } from '../rules/shared/values.js';

const NUMERIC_ID = /^\d+$/;

/** `/zones/<32-hex>/logpush/jobs/17` -> `/zones/:id/logpush/jobs/:id`; the query string is dropped. */
export function templatePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const templated = bare
    .split('/')
    .map((segment) => (ID32_ANY_CASE.test(segment) || NUMERIC_ID.test(segment) ? ':id' : segment))
    .join('/');
  return redact(templated);
}

/** The templated path plus its query string, secret-looking query values redacted (for log lines). */
export function templatePathWithQuery(path: string, search: string): string {
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  return redact(redactUrl(`${templatePath(path)}${query}`));
}
