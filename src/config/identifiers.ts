/**
 * The fields whose value becomes an identifier: a zone's name and account, an account's id, the
 * name of a DNS record, a Logpush job, a notification policy, a Page Shield policy's description,
 * a WAF override's id, a managed ruleset's name and its exceptions' rule ids and categories, and
 * the target's URL and files. An identifier is printed in every plan
 * (in addresses and step ids, lower-cased for DNS names), in journals, logs and file paths, and it
 * is what a reader needs to see to review a change: it cannot be secret. So `${env:NAME}` is refused
 * there (src/config/env.ts); `${var:NAME}` is the way to vary such a value per environment, and
 * CLOUDFLARE_BASE_URL or --api-url to take the API's URL from the environment (docs/file-format.md).
 */
const IDENTIFIER_PATHS: RegExp[] = [
  /^target\.api_url$/,
  /^target\.local\.(db|fixtures)$/,
  /^zones\[\d+\]\.(name|account)$/,
  /^accounts\[\d+\]\.id$/,
  /^zones\[\d+\]\.dns\.records\[\d+\]\.name$/,
  /^zones\[\d+\]\.logpush\.jobs\[\d+\]\.name$/,
  /^zones\[\d+\]\.page_shield\.policies\[\d+\]\.description$/,
  /^zones\[\d+\]\.waf\.overrides\[\d+\]\.id$/,
  /^zones\[\d+\]\.waf\.managed_rulesets\[\d+\]\.(ruleset|rules\[\d+\]\.id|categories\[\d+\]\.category)$/,
  /^accounts\[\d+\]\.load_balancing\.notifications\[\d+\]\.name$/,
];

/** Whether the value at this dotted path of a desired-state file is an identifier. */
export function isIdentifierPath(path: string): boolean {
  return IDENTIFIER_PATHS.some((p) => p.test(path));
}
