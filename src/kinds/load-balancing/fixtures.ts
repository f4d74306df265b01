/**
 * An account's load-balancing state in a fixtures export (docs/fixtures.md): its pools
 * (`accounts[].pools`, same ids, with their legacy `notification_email` and `notification_filter`)
 * and its notification policies (`accounts[].notification_policies`, same ids, every alert type,
 * in the API's order), so a served copy plans like the original.
 *
 * The plan's read keeps only what planning uses of each pool and policy; `read` here (GETs only,
 * for `export --as fixtures`; nothing for a rehearsal) lists both again as the API returns them, so
 * the file also has the pools' origins and monitors and the policies' timestamps (their order).
 */
import { listAll } from '../../core/list.js';
import type { KindFixtures } from '../../core/kind.js';
import { POLICY_FIELDS } from '../../rules/notifications/index.js';
import type { LoadBalancingLive } from './model.js';

type Raw = Record<string, unknown>;

interface LbFixturesLive extends LoadBalancingLive {
  rawPools?: Raw[];
  rawPolicies?: Raw[];
}

/** The fields of a policy a fixtures file holds (the API's POST fields, the id and timestamps). */
const FIXTURE_POLICY_FIELDS = ['id', ...POLICY_FIELDS, 'created', 'modified'];

const pick = (o: Raw, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined && o[k] !== null).map((k) => [k, o[k]]));

export const loadBalancingFixtures: KindFixtures = {
  async read(raw, ctx) {
    // a rehearsal plans and applies with what the plan read: nothing more to ask
    if (ctx.for === 'sandbox') return raw;
    const account = ctx.owner.id;
    const [rawPools, rawPolicies] = await Promise.all([
      listAll<Raw>(ctx.client, `/accounts/${account}/load_balancers/pools`, { perPage: 'single' }),
      listAll<Raw>(ctx.client, `/accounts/${account}/alerting/v3/policies`, { perPage: 'single' }),
    ]);
    return { ...(raw as LoadBalancingLive), rawPools, rawPolicies } satisfies LbFixturesLive;
  },
  entry(raw) {
    const live = raw as LbFixturesLive;
    const pools: Raw[] = live.rawPools
      ? live.rawPools.map(({ created_on: _c, modified_on: _m, ...p }) => p)
      : live.pools.map((p) => {
          const out: Raw = { id: p.id, name: p.name, notification_email: p.notification_email };
          if (p.notification_filter) out.notification_filter = p.notification_filter;
          return out;
        });
    const policies: Raw[] = (live.rawPolicies ?? (live.policies as unknown as Raw[])).map((p) =>
      pick(p, FIXTURE_POLICY_FIELDS),
    );
    const fields: Raw = {};
    if (pools.length > 0) fields.pools = pools;
    if (policies.length > 0) fields.notification_policies = policies;
    return { fields };
  },
};
