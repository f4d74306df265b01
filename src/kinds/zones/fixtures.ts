/**
 * The zone itself in a fixtures export: same id, plan tier, status, type, pause, creation time (a
 * Free zone's record quota depends on it) and its account (same id and name), so a served copy
 * answers `GET /zones?name=` as the original did and holds the records the original may hold.
 */
import type { KindFixtures } from '../../core/kind.js';

const PLANS = new Set(['free', 'pro', 'business', 'enterprise']);

export const zonesFixtures: KindFixtures = {
  entry(live) {
    const zone = live as Record<string, unknown> | null;
    if (!zone) return {};
    const account = zone.account as { id?: string; name?: string } | undefined;
    const legacy = (zone.plan as { legacy_id?: string } | undefined)?.legacy_id;
    const fields: Record<string, unknown> = { id: zone.id };
    if (account?.id) fields.account = account.id;
    if (legacy && PLANS.has(legacy)) fields.plan = legacy;
    if (typeof zone.status === 'string') fields.status = zone.status;
    if (typeof zone.type === 'string') fields.type = zone.type;
    if (zone.paused === true) fields.paused = true;
    if (typeof zone.created_on === 'string') fields.created_on = zone.created_on;
    return {
      fields,
      accounts: account?.id ? [{ id: account.id, name: account.name || account.id }] : [],
    };
  },
};
