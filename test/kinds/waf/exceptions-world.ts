/**
 * The world of the `managed_rulesets` integration tests: a migrated zone whose managed entry point
 * executes the Cloudflare Managed Ruleset (with one override) and the Exposed Credentials Check, and
 * has a log rule of its own; the local API serves the catalogue. Helpers read it back.
 */
import { fetchTestRoute } from '../../support/test-routes.js';
import { fixtures, type Bed } from '../load-balancing/harness.js';

export const ZONE = 'done.example';
export const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
export const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
export const EXPOSED = 'c2e184081120413c86c3ab7e14069605';
/** "Bad Robots - Known Malicious User Agent" and "WordPress - XSS - Comment Author Field" */
export const BAD_ROBOTS = '5de7edfa648c4d6891dc3e7f84534ffa';
export const WORDPRESS_XSS = 'e3a567afc347477d9702d9047e97d760';
export const SCORE_RULE = '6179ae15870a4bb7b2d480d4843b323c';
export const MANAGED_EXEC = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa01';
export const EXPOSED_EXEC = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa02';
export const LOG_RULE = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa03';

export const world = () =>
  fixtures({
    zones: [
      {
        name: ZONE,
        plan: 'business',
        waf: {
          migration_state: 'complete',
          entrypoint: {
            name: 'default',
            rules: [
              {
                id: MANAGED_EXEC,
                ref: 'managed-ref',
                action: 'execute',
                expression: 'true',
                description: 'Execute the Cloudflare Managed Ruleset',
                action_parameters: {
                  id: MANAGED,
                  overrides: { rules: [{ id: WORDPRESS_XSS, enabled: false }] },
                },
              },
              {
                id: EXPOSED_EXEC,
                ref: 'exposed-ref',
                action: 'execute',
                expression: 'http.request.uri.path eq "/login"',
                description: 'Exposed credentials on login',
                action_parameters: { id: EXPOSED },
              },
              {
                id: LOG_RULE,
                ref: 'log-ref',
                action: 'log',
                expression: 'ip.src eq 192.0.2.1',
                description: 'watch',
              },
            ],
          },
        },
      },
    ],
  });

export const EXCEPTIONS = `version: 1
zones:
  - name: ${ZONE}
    waf:
      managed_rules: new
      managed_rulesets:
        - ruleset: cloudflare_managed
          categories:
            - { category: wordpress, action: block }
            - { category: joomla, enabled: false }
          rules:
            - { id: ${BAD_ROBOTS}, action: log }
        - ruleset: owasp
          paranoia_level: 2
          score_threshold: medium
          action: managed_challenge
`;

export async function zoneIdOf(bed: Bed): Promise<string> {
  return (await bed.t.api('GET', `/zones?name=${ZONE}`)).body.result[0].id;
}

export interface LiveRule {
  id: string;
  ref: string;
  version: string;
  action: string;
  description?: string;
  expression: string;
  action_parameters?: { id: string; overrides?: Record<string, unknown> };
}

export async function entrypointOf(bed: Bed): Promise<{ version: string; rules: LiveRule[] }> {
  const zone = await zoneIdOf(bed);
  return (await bed.t.api('GET', `/zones/${zone}/rulesets/phases/http_request_firewall_managed/entrypoint`))
    .body.result;
}

/** The provider publishes the next version of a managed ruleset (the local API's test route). */
export async function publish(bed: Bed, ruleset: string, changes: Record<string, unknown>): Promise<void> {
  const res = await fetchTestRoute(bed.t.server, `/rulesets/${ruleset}/versions`, {
    method: 'POST',
    body: changes,
  });
  if (res.status !== 200) throw new Error(`publish: ${res.status} ${await res.text()}`);
}
