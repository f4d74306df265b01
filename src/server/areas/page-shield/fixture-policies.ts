/**
 * `zones[].page_shield.policies` of the fixtures file: CSP policies with their ids (a copy of live
 * state keeps them, so updates and deletes planned against the copy name the same policy). Every
 * policy is checked by the same rules as a POST. The API can change policies, so they are seeded
 * on the first load only: a restart never brings back a deleted policy or undoes an update.
 */
import { validateCspPolicy, type CspPolicyFields } from '../../../rules/page-shield/index.js';
import type { FixtureContext, FixturePath } from '../../area.js';
import type { ZoneRow } from '../../store/core.js';
import { isId32, stableId } from '../../store/ids.js';
import { isPlainObject } from '../area-helpers/replies.js';
import { seedOnce } from '../area-helpers/seeds.js';
import type { PolicyRow } from './store.js';

export function loadPolicies(value: unknown, zone: ZoneRow, path: FixturePath, ctx: FixtureContext): void {
  if (!Array.isArray(value)) ctx.fail(path, 'must be a list of policies');
  const rows = value.map((raw, i): PolicyRow => {
    const at = [...path, i];
    if (!isPlainObject(raw)) ctx.fail(at, 'must be a mapping');
    const { id, created_on, ...body } = raw;
    const { violations, fields } = validateCspPolicy(body, { partial: false });
    if (violations.length > 0) ctx.fail([...at, violations[0].path], violations[0].message);
    const f = fields as CspPolicyFields;
    if (id !== undefined && (typeof id !== 'string' || !isId32(id)))
      ctx.fail([...at, 'id'], 'must be 32 hexadecimal characters');
    if (created_on !== undefined && typeof created_on !== 'string')
      ctx.fail([...at, 'created_on'], 'must be a timestamp');
    return {
      id: (id as string | undefined) ?? stableId('page_shield_policy', `${zone.id}\0${f.description}\0${i}`),
      zone_id: zone.id,
      description: f.description,
      action: f.action,
      expression: f.expression,
      enabled: f.enabled ? 1 : 0,
      value: f.value,
      // the list is in creation order: the file's order, unless it says otherwise
      created_on: (created_on as string | undefined) ?? zone.created_on,
    };
  });
  const db = ctx.app.db;
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    if (seen.has(row.id)) ctx.fail([...path, i, 'id'], `another policy has the id ${row.id}`);
    seen.add(row.id);
    const owner = db.prepare('SELECT zone_id FROM page_shield_policies WHERE id = ?').get(row.id) as
      { zone_id: string } | undefined;
    if (owner && owner.zone_id !== zone.id)
      ctx.fail([...path, i, 'id'], `the id ${row.id} already belongs to a policy of another zone`);
  });
  if (!seedOnce(db, 'page_shield_policies', zone.id)) return;
  const insert = db.prepare(
    `INSERT INTO page_shield_policies (id, zone_id, description, action, expression, enabled, value, created_on)
     VALUES (@id, @zone_id, @description, @action, @expression, @enabled, @value, @created_on)`,
  );
  for (const row of rows) insert.run(row);
}
