/**
 * `accounts[].notification_policies` of the fixtures file: the account's notification policies
 * (alerting v3) with their ids, so a copy of live state (`zoneplan export --as fixtures`) lists the
 * same policies, in the same order, under the same ids. Each is checked like a POST body, except
 * that `filters.pool_id` may name pools the account no longer has (the API keeps such ids).
 * Seeded once per id: a policy the API changed or deleted stays so across restarts.
 *
 *   notification_policies: [{ id?, name, alert_type, enabled?, mechanisms, filters?, description?,
 *                             alert_interval?, conditions?, created?, modified? }]
 */
import { validateNotificationPolicy } from '../../../rules/notifications/index.js';
import type { FixtureContext, FixturePath } from '../../area.js';
import type { AccountRow } from '../../store/core.js';
import { now, stableId } from '../../store/ids.js';
import { isPlainObject, UUID } from '../area-helpers/replies.js';
import { seedOnce } from '../area-helpers/seeds.js';

/** A stable UUID-shaped id derived from the account and the policy's name. */
function derivedId(account: string, name: string): string {
  const h = stableId('alert-policy', `${account}\0${name}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function loadPolicyFixtures(
  value: unknown,
  account: AccountRow,
  path: FixturePath,
  ctx: FixtureContext,
): void {
  if (!Array.isArray(value)) ctx.fail(path, 'must be a list of notification policies');
  value.forEach((raw, i) => {
    const p = [...path, i];
    if (!isPlainObject(raw)) ctx.fail(p, 'must be a mapping (name, alert_type, mechanisms)');
    const { id: given, created, modified, ...body } = raw;
    // an alert type this implementation does not know is kept as it is: a copy of live state must
    // hold every policy the original has (the plan lists them all)
    const problems = validateNotificationPolicy({ enabled: true, ...body }, { partial: false }).filter(
      (v) => !(v.path === 'alert_type' && typeof body.alert_type === 'string' && body.alert_type !== ''),
    );
    if (problems.length > 0) {
      const first = problems[0];
      ctx.fail(
        [
          ...p,
          ...first.path
            .split(/[.[\]]+/)
            .filter(Boolean)
            .map(pathPart),
        ],
        first.message,
      );
    }
    if (given !== undefined && (typeof given !== 'string' || !UUID.test(given)))
      ctx.fail([...p, 'id'], 'must be a UUID such as 0da2b59e-f118-439d-8097-bdfb215203c9');
    for (const [key, v] of [
      ['created', created],
      ['modified', modified],
    ] as const)
      if (v !== undefined && typeof v !== 'string') ctx.fail([...p, key], 'must be a timestamp (a string)');
    const id = (given as string | undefined) ?? derivedId(account.id, String(body.name));
    const stamp = now();
    const policy = {
      description: '',
      filters: {},
      enabled: true,
      ...body,
      id,
      created: (created as string | undefined) ?? stamp,
      modified: (modified as string | undefined) ?? stamp,
    };
    if (!seedOnce(ctx.app.db, 'alert_policy', id)) return;
    ctx.app.db
      .prepare(
        `INSERT INTO alert_policies (id, account_id, created, data) VALUES (?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET account_id = excluded.account_id, created = excluded.created, data = excluded.data`,
      )
      .run(id, account.id, policy.created, JSON.stringify(policy));
  });
}

/** A violation path's part as a fixtures path part: list indexes are numbers (`rules[0]`). */
function pathPart(part: string): string | number {
  return /^\d+$/.test(part) ? Number(part) : part;
}
