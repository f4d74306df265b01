/**
 * Facts behind the two migration blockers only support can lift (over 200 firewall rules, an expression
 * over 4 KB), from the Firewall Rules API (`GET /zones/{id}/firewall/rules`, each rule with
 * `filter.expression`). When the target does not serve that API, the facts are unknown (undefined) and
 * the compatibility check step at apply time is the only guard.
 */
import { listPages } from '../../core/list.js';
import type { Requester } from '../../core/runtime.js';

const PER_PAGE = 100;

export async function readFirewallFacts(
  client: Requester,
  zone: string,
): Promise<{ count: number; longestExpressionBytes: number } | undefined> {
  let count = 0;
  let longest = 0;
  try {
    let announced: number | undefined;
    for await (const page of listPages(client, `/zones/${zone}/firewall/rules`, { perPage: PER_PAGE })) {
      count += page.items.length;
      for (const r of page.items) {
        const rule = (r ?? {}) as { filter?: { expression?: unknown }; expression?: unknown };
        const expr = rule.filter?.expression ?? rule.expression;
        if (typeof expr === 'string') longest = Math.max(longest, Buffer.byteLength(expr, 'utf8'));
      }
      announced = page.resultInfo?.total_count;
    }
    // a server may report the total without listing every rule
    if (typeof announced === 'number' && announced > count) count = announced;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 404 || status === 400 || status === 405) return undefined;
    throw err;
  }
  return { count, longestExpressionBytes: longest };
}
