/**
 * Load balancer pools of an account (token only). Pools are seeded by the `pools` section of an
 * account in the fixtures file and can also be created through the API.
 */
import type { AreaModule, FixtureContext, FixturePath } from '../../area.js';
import type { AccountRow } from '../../store/core.js';
import { stableId } from '../../store/ids.js';
import { isPlainObject } from '../area-helpers/replies.js';
import { seedOnce } from '../area-helpers/seeds.js';
import { checkPoolFields, poolDoc } from './pool-fields.js';
import { poolRoutes } from './pools.js';
import { POOL_MIGRATIONS, savePool } from './store.js';
import { ID32 } from '../../../rules/shared/values.js';

/** `accounts[].pools`: [{id?, name, notification_email?, origins?, ...}]; origins default to one placeholder. */
function loadPools(value: unknown, account: AccountRow, path: FixturePath, ctx: FixtureContext): void {
  if (!Array.isArray(value)) ctx.fail(path, 'must be a list of pools');
  const names = new Set<string>();
  value.forEach((raw, i) => {
    const p = [...path, i];
    if (!isPlainObject(raw)) ctx.fail(p, 'must be a mapping (name, notification_email, origins)');
    const fields: Record<string, unknown> = {
      origins: [{ name: `${String(raw.name)}-origin`, address: '192.0.2.1', enabled: true, weight: 1 }],
      ...raw,
    };
    const problems = checkPoolFields(fields, false);
    if (problems.length > 0)
      ctx.fail([...p, ...problems[0].path.split('.').filter(Boolean)], problems[0].message);
    if (names.has(String(raw.name))) ctx.fail([...p, 'name'], `pool ${String(raw.name)} is listed twice`);
    names.add(String(raw.name));
    if (raw.id !== undefined && (typeof raw.id !== 'string' || !ID32.test(raw.id))) {
      ctx.fail([...p, 'id'], 'must be 32 lowercase hexadecimal characters');
    }
    const id = (raw.id as string | undefined) ?? stableId('pool', `${account.id}\0${String(raw.name)}`);
    // seeded once: a restart must not put back an e-mail the API removed, nor a deleted pool
    if (seedOnce(ctx.app.db, 'lb_pool', id)) {
      savePool(ctx.app.db, account.id, poolDoc(id, fields, account.created_on, account.created_on));
    }
  });
}

export const loadBalancingArea: AreaModule = {
  name: 'load_balancers',
  permissions: [{ name: 'load_balancers', tokenOnly: true }],
  migrations: POOL_MIGRATIONS,
  routes(router) {
    poolRoutes(router);
  },
  fixtures: { account: { pools: loadPools } },
};
