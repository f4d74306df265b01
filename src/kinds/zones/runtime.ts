/**
 * The runtime of the `zones` kind: the owner kind of zone scope. It finds the zones of the file
 * through the paged zone list when that costs fewer requests (read-many.ts), and each other zone by
 * name (one GET /zones?name= per zone); it creates a missing zone in its account, and deletes a zone
 * only when its entry says `delete: true` (an irreversible step: it takes every record with it).
 */
import type { DesiredZone } from '../../config/model.js';
import { UserError } from '../../errors.js';
import { listAll } from '../../core/list.js';
import type { KindRuntime, StepResult } from '../../core/runtime.js';
import { readZonesAtOnce, zoneListPages } from './read-many.js';

export type LiveZone = Record<string, unknown> & { id: string; name: string };

interface ZoneStepData {
  op: 'create' | 'delete';
  body?: Record<string, unknown>;
  id?: string;
}

/** The zone's entry is what its create or delete step comes from (see StepDraft.source). */
const sourceOf = (entry: DesiredZone) => (typeof entry.path === 'string' ? entry.path : undefined);

export const zonesRuntime: KindRuntime<DesiredZone, LiveZone | null> = {
  ownerKind: {
    ownerIdOf: (live) => live?.id,
    ownerInfoOf: (live) => live ?? undefined,
    readMany: readZonesAtOnce,
    readManyRequests: zoneListPages,
  },

  async read(ctx) {
    const zones = await listAll<LiveZone>(ctx.client, '/zones', {
      query: { name: ctx.owner.name },
      perPage: 50,
    });
    const found = zones.find((z) => z.name.toLowerCase() === ctx.owner.name.toLowerCase());
    return found ?? null;
  },

  plan(entry, live, ctx) {
    if (!entry) return [];
    const name = ctx.owner.name;
    if (entry.delete === true) {
      if (!live) return [];
      return [
        {
          key: 'zone',
          action: 'delete',
          address: `zone ${name}`,
          before: { name, account: (live.account as { id?: string } | undefined)?.id ?? null },
          after: null,
          irreversible: true,
          liveId: live.id,
          summary: `delete zone ${name} and everything in it`,
          source: sourceOf(entry),
          data: { op: 'delete', id: live.id } satisfies ZoneStepData,
        },
      ];
    }
    if (live) return [];
    if (!entry.account) {
      throw new UserError(
        `${entry.path}: zone ${name} does not exist on the target; set \`account:\` so zoneplan can create it`,
      );
    }
    const body = { name, account: { id: entry.account }, type: entry.type ?? 'full' };
    return [
      {
        key: 'zone',
        action: 'create',
        address: `zone ${name}`,
        before: null,
        after: { name, account: entry.account, type: body.type },
        source: sourceOf(entry),
        data: { op: 'create', body } satisfies ZoneStepData,
      },
    ];
  },

  async apply(steps, ctx) {
    const results: StepResult[] = [];
    for (const step of steps) {
      const d = step.data as ZoneStepData;
      try {
        if (d.op === 'create') {
          const res = await ctx.client.request<LiveZone>('POST', '/zones', { body: d.body });
          results.push({ id: step.id, status: 'done', ownerId: res.result.id, ownerInfo: res.result });
        } else {
          await ctx.client.request('DELETE', `/zones/${d.id}`);
          results.push({ id: step.id, status: 'done' });
        }
        ctx.progress(1);
      } catch (err) {
        const e = err as { message?: string; outcomeUnknown?: boolean; alreadyTrue?: boolean };
        results.push({
          id: step.id,
          status: e.outcomeUnknown || e.alreadyTrue ? 'unknown' : 'failed',
          error: String(e.message),
        });
      }
    }
    return results;
  },
};
