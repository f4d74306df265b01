/**
 * The search filters of `GET /zones` (OpenAPI zones-get): `name` and `account.name` with optional
 * operator prefixes, `status`, `account.id`, and `match=all|any` to combine them.
 */
import { ApiError } from '../../http/envelope.js';
import { enumParam } from '../../http/request.js';
import type { ZoneRow } from '../../store/core.js';

/**
 * The operators the OpenAPI lists for `name` and `account.name`, written `operator:value`; without
 * a prefix the operator is `equal`. All but the `_case_sensitive` ones ignore case.
 */
export const NAME_OPERATORS = [
  'equal',
  'not_equal',
  'starts_with',
  'ends_with',
  'contains',
  'starts_with_case_sensitive',
  'ends_with_case_sensitive',
  'contains_case_sensitive',
] as const;
type NameOperator = (typeof NAME_OPERATORS)[number];

/** OpenAPI maxLength of both name parameters. */
const MAX_FILTER_LENGTH = 253;

/**
 * A predicate for one name parameter. Only a known operator counts as a prefix, so an account
 * name that itself holds a colon ("Team: Web") still matches exactly. `trimDot` drops one trailing
 * dot from the value, as zone names are stored without it.
 */
export function nameFilter(param: string, raw: string, trimDot: boolean): (value: string) => boolean {
  if (raw.length > MAX_FILTER_LENGTH) {
    throw ApiError.badRequest(
      `The query parameter ${param} must be at most ${MAX_FILTER_LENGTH} characters.`,
    );
  }
  const colon = raw.indexOf(':');
  const prefix = colon > 0 ? raw.slice(0, colon) : '';
  const known = (NAME_OPERATORS as readonly string[]).includes(prefix);
  const op: NameOperator = known ? (prefix as NameOperator) : 'equal';
  let wanted = known ? raw.slice(colon + 1) : raw;
  if (trimDot && (op === 'equal' || op === 'not_equal')) wanted = wanted.replace(/\.$/, '');
  const sensitive = op.endsWith('_case_sensitive');
  const w = sensitive ? wanted : wanted.toLowerCase();
  return (value) => {
    const v = sensitive ? value : value.toLowerCase();
    switch (op) {
      case 'equal':
        return v === w;
      case 'not_equal':
        return v !== w;
      case 'starts_with':
      case 'starts_with_case_sensitive':
        return v.startsWith(w);
      case 'ends_with':
      case 'ends_with_case_sensitive':
        return v.endsWith(w);
      case 'contains':
      case 'contains_case_sensitive':
        return v.includes(w);
    }
  };
}

/**
 * The zone predicate for a query: each given requirement is one test; `match=all` (the default)
 * keeps a zone passing every test, `match=any` one passing at least one. No requirement keeps all.
 */
export function zoneFilter(
  q: URLSearchParams,
  accountNameOf: (zone: ZoneRow) => string,
): (zone: ZoneRow) => boolean {
  const tests: ((z: ZoneRow) => boolean)[] = [];
  const name = q.get('name');
  if (name) {
    const f = nameFilter('name', name, true);
    tests.push((z) => f(z.name));
  }
  const status = enumParam(q, 'status', ['initializing', 'pending', 'active', 'moved'] as const);
  if (status) tests.push((z) => z.status === status);
  const accountId = q.get('account.id');
  if (accountId) tests.push((z) => z.account_id === accountId);
  const accountName = q.get('account.name');
  if (accountName) {
    const f = nameFilter('account.name', accountName, false);
    tests.push((z) => f(accountNameOf(z)));
  }
  const match = enumParam(q, 'match', ['all', 'any'] as const, 'all');
  if (tests.length === 0) return () => true;
  return match === 'any' ? (z) => tests.some((t) => t(z)) : (z) => tests.every((t) => t(z));
}
