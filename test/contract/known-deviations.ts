/**
 * Where the 2024 OpenAPI subset is outdated or contradicts itself, listed once, each with its
 * evidence. A contract violation matching an entry is accepted; every other one is a bug in the
 * server or the reconciler and fails the test that saw it.
 */
import type { Exchange, Violation } from './openapi.js';

export interface KnownDeviation {
  /** `METHOD /template` of the subset, or `*` */
  operation: string;
  /** matched against `where` (e.g. `response 200 body`, `query per_page`) */
  where: RegExp;
  /** matched against the validator's message */
  message: RegExp;
  /** why the subset, not the exchange, is wrong here */
  evidence: string;
  /** when set, the entry covers only exchanges for which this holds */
  holds?: (x: Exchange) => boolean;
}

export const KNOWN_DEVIATIONS: KnownDeviation[] = [
  ...[
    'POST /zones/{zone_id}/dns_records',
    ...['PUT', 'PATCH'].map((m) => `${m} /zones/{zone_id}/dns_records/{dns_record_id}`),
  ].map((operation) => ({
    operation,
    where: /^request body$/,
    message: /^\/ must have required property 'id'$/,
    evidence:
      'the subset uses one schema (dns-records_dns-record, required: id, ...) for the created record and the ' +
      'create request, so a POST would need the id the server assigns: the document contradicts itself ' +
      '(docs/reference/api-facts.md "DNS records": the response adds id).',
  })),
  {
    operation: '*',
    where: /^(request|response 200) body$/,
    message: /^\/(result(\/\*)?\/)?comment must be string$/,
    evidence:
      'the service spec (../shared/spec/service-api.md, DNS record fields) gives `comment` as "string or null"; ' +
      'the 2024 subset has a plain string (dns-records_comment).',
  },
  {
    operation: 'PATCH /zones/{zone_id}/dns_records/{dns_record_id}',
    where: /^request body$/,
    message: /^\/ must have required property '(type|name|content|data|priority)'$/,
    evidence:
      'docs/reference/api-facts.md "DNS records": "PUT overwrites (missing fields reset), PATCH edits", and the batch takes ' +
      '`patches: [{id, ...}]`; the subset gives the PATCH the whole record schema of POST and PUT ' +
      '(dns-records_dns-record: type, name and content or data required), so an edit would have to restate the record.',
  },
  {
    operation: 'PUT /zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint',
    where: /^query (waf_migration|phase_two)$/,
    message: /^parameter not documented$/,
    evidence:
      'the WAF migration is this PUT with ?waf_migration=<mode>&phase_two=1 (docs/reference/service-api.md, "Update zone entry ' +
      'point ruleset"); the subset predates it (reference/README.md: waf_migration is documented only in prose).',
  },
  {
    operation: '*',
    where: /^(request|response 200) body$/,
    message:
      /^\/(result\/\*\/)?mechanisms\/(email|webhooks|pagerduty)\/\*\/id must match exactly one schema in oneOf$/,
    evidence:
      'aaa_mechanisms gives an id as oneOf [aaa_uuid (a string of at most 36), an e-mail string]: any address of ' +
      '36 characters or fewer, and every uuid, matches both, so the schema refuses its own example ' +
      '{"email":[{"id":"test@example.com"}],"webhooks":[{"id":"14cc1190-5d2b-4b98-a696-c424cb2ad05f"}]}.',
  },
  {
    operation: '*',
    where: /^(request|response 200) body$/,
    message: /^\/(result(\/\*)?\/)?max_upload_(bytes|records|interval_seconds) must be >= \d+$/,
    evidence:
      'docs/reference/api-facts.md "Logpush jobs": max_upload_bytes 0 or 5e6..1e9, max_upload_interval_seconds 0 or 30..300, ' +
      'max_upload_records 0 or 1000..1e6 (0 = the default); the 2024 subset has only the ranges.',
  },
  {
    operation: '*',
    where: /^(request|response 200) body$/,
    message: /^\/(result(\/\*)?\/)?kind must be equal to one of the allowed values$/,
    evidence:
      'docs/reference/api-facts.md "Logpush jobs": kind is \'\' or edge; the 2024 subset allows only edge.',
  },
  {
    operation: '*',
    where: /^request body$/,
    message: /^required body missing$/,
    evidence:
      'DELETE of a DNS record, Logpush job, WAF override or pool is given `requestBody: {required: true, content: ' +
      '{"application/json": {}}}`: a required body with no schema, where the same document\'s other deletes ' +
      '(Page Shield and alerting policies) take none; docs/reference/api-facts.md gives these deletes no body, only `result {id}`.',
  },
  {
    operation: '*',
    where: /^response (5\d\d|429)$/,
    message: /^status not documented$/,
    evidence:
      'the subset documents 200 and 4XX only; docs/reference/api-facts.md "Envelope, auth, limits" documents 429 (rate limit) and the ' +
      'envelope the service also answers 5xx with (the test beds inject 503s to test retries).',
  },
  {
    operation: '*',
    where: /^response 4xx body$/i,
    message:
      /^\/(errors\/\*\/code must be >= 1000|success must be equal to one of the allowed values|result must be array)$/,
    evidence:
      'docs/reference/api-facts.md "Envelope, auth, limits": a 429 answers code 971 (10429 also reported), under the 4XX schema\'s ' +
      "minimum of 1000; the DNS list's 4XX schema also takes the list's own success/result, which no failure has.",
    holds: (x) => x.status === 429,
  },
  {
    operation: 'PATCH /accounts/{account_id}/load_balancers/pools',
    where: /^query (page|per_page)$/,
    message: /^parameter not documented$/,
    evidence:
      'the operation\'s own description: "Supports the standard pagination query parameters, either limit/offset ' +
      'or per_page/page", which its parameter list leaves out (the document contradicts itself).',
  },
  {
    operation: 'PATCH /accounts/{account_id}/load_balancers/pools',
    where: /^request body$/,
    message: /^\/notification_email must be equal to one of the allowed values$/,
    evidence:
      'load-balancing_patch_pools_notification_email says "only resetting this field with an empty string `""` ' +
      'is accepted" but its enum holds the two-character text \'""\' (docs/reference/api-facts.md: the PATCH accepts only ' +
      '{notification_email: ""}).',
  },
  {
    operation: '*',
    where: /^response 200 body$/,
    message: /^\/result\/\*\/destination_conf must match format "uri"$/,
    evidence:
      'Logpush destinations carry the {DATE} path placeholder (r2://bucket/logs/{DATE}?...), which RFC 3986 (the ' +
      '"uri" format) refuses; the local API keeps such a value when a client sets one (test/export/seed.ts does).',
  },
  {
    operation: '*',
    where: /^(request|response \d+) body$/,
    message:
      /^\/(result(\/\*)?\/|(posts|patches|puts)\/\d+\/)?type must be equal to one of the allowed values$/,
    evidence:
      'docs/reference/api-facts.md "DNS records" lists OPENPGPKEY among the schema\'s record types; the 2024 subset\'s enum predates it.',
    holds: (x) => JSON.stringify([x.requestBody, x.responseBody]).includes('"OPENPGPKEY"'),
  },
  {
    operation: '*',
    where: /^(request|response 200) body$/,
    message:
      /^\/(result\/)?rules\/\*(\/action must match pattern "\^\[a-z\]\+\$"|\/action must be equal to one of the allowed values| must match exactly one schema in oneOf)$|\/overrides\/(rules|categories)\/\*\/action must match pattern "\^\[a-z\]\+\$"$/,
    evidence:
      "rulesets_RuleAction is `^[a-z]+$`, yet the same document's rule variants name the actions managed_challenge, " +
      'js_challenge, set_config, ... (rulesets_ManagedChallengeRule: enum ["managed_challenge"]): every rule with such an ' +
      'action breaks the pattern, so it matches no variant of the oneOf (the document contradicts itself). Managed rules ' +
      'default to managed_challenge (docs/reference/api-facts.md "Managed rulesets"), and overrides may set it.',
    holds: (x) => /"action":"[a-z]+_[a-z_]+"/.test(JSON.stringify([x.requestBody, x.responseBody])),
  },
  ...[
    'GET /zones/{zone_id}/rulesets/{ruleset_id}',
    'GET /zones/{zone_id}/rulesets/{ruleset_id}/versions/{ruleset_version}',
  ].map((operation) => ({
    operation,
    where: /^response 200 body$/,
    message: /^\/result\/rules\/\* must have required property 'expression'$/,
    evidence:
      'docs/reference/api-facts.md "Managed rulesets": a managed rule is `id, version, action, categories, description, ' +
      'enabled, last_updated, ref`: the provider does not publish the expressions of its managed rules, while ' +
      'rulesets_ResponseRule requires `expression` of every rule (written for the rulesets a client owns).',
    holds: (x: Exchange) =>
      (x.responseBody as { result?: { kind?: string } } | undefined)?.result?.kind === 'managed',
  })),
];

export function isKnownDeviation(v: Violation, x?: Exchange): boolean {
  return KNOWN_DEVIATIONS.some(
    (d) =>
      (d.operation === '*' || d.operation === v.operation) &&
      d.where.test(v.where) &&
      d.message.test(v.message) &&
      (!d.holds || (x !== undefined && d.holds(x))),
  );
}
