/**
 * The guard of the previous WAF APIs: they work while the previous WAF runs (states default, start,
 * validation) and answer a clear 400 once the zone has migrated; plus the page-style listing they share.
 */
import { previousWafApisAvailable } from '../../../rules/waf/index.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import { pageParams, type ListPaging } from '../../http/paging.js';
import { paginate } from '../area-helpers/listing.js';
import { WAF_CODES } from './migration-routes.js';
import { readWafZone } from './store.js';

/** Refuses every previous-WAF call on a migrated zone. */
export function requirePreviousWaf(ctx: RequestContext): void {
  if (!previousWafApisAvailable(readWafZone(ctx.app.db, ctx.zone!.id).migration_state)) {
    throw ApiError.of(
      400,
      WAF_CODES.previousGone,
      'The previous WAF managed rules APIs no longer work for this zone: it has migrated to the new WAF Managed Rules. Use the Rulesets API.',
    );
  }
}

/** Wraps a handler so it first checks that the previous WAF still runs. */
export function previous(handler: (ctx: RequestContext) => Reply): (ctx: RequestContext) => Reply {
  return (ctx) => {
    requirePreviousWaf(ctx);
    return handler(ctx);
  };
}

/** One page of a previous-WAF list, its page parameters clamped to `list`'s range. */
export function listPage(ctx: RequestContext, docs: unknown[], list: ListPaging): Reply {
  const { page, perPage } = pageParams(ctx.query, list);
  const { items, info } = paginate(docs, page, perPage);
  return ok(items, info);
}
