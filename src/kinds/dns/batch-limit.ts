/**
 * Operations per DNS batch request: 200 on Free zones, 3,500 on paid plans (docs/reference/api-facts.md). The plan
 * comes from the zone object (`plan.legacy_id`, `plan.name`); unknown counts as Free so a
 * chunk is never refused for its size.
 */
export const FREE_BATCH_LIMIT = 200;
export const PAID_BATCH_LIMIT = 3500;

export function batchLimit(zone: Record<string, unknown> | undefined): number {
  const plan = (zone?.plan ?? {}) as Record<string, unknown>;
  const words = [plan.legacy_id, plan.name]
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.toLowerCase());
  if (words.length === 0) return FREE_BATCH_LIMIT;
  return words.some((w) => w.includes('free')) ? FREE_BATCH_LIMIT : PAID_BATCH_LIMIT;
}
