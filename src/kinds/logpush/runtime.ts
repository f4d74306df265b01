/**
 * The runtime half of `logpush`: read the zone's jobs (one request: the list is a single page),
 * plan purely (plan.ts), apply creates, updates and deletes one by one. Every destination seen in a
 * live job has its secrets registered before anything can print it.
 */
import type { DesiredLogpush } from './desired.js';
import { listAll } from '../../core/list.js';
import type { ApplyContext, KindRuntime, ReadContext, Step } from '../../core/runtime.js';
import { applyInOrder, deleteIfPresent, whereInFile } from '../shared/api.js';
import { registerDestinationSecrets } from './destination.js';
import { liveJobFromApi, type LiveJob } from './jobs.js';
import { planOwnedLogpush } from './owners.js';
import { ownerSettingsOf } from '../shared/owners.js';
import { planLogpush, type LogpushApplyData } from './plan.js';

export async function readJobs(client: ReadContext['client'], zoneId: string): Promise<LiveJob[]> {
  const listed = await listAll<unknown>(client, `/zones/${zoneId}/logpush/jobs`, { perPage: 'single' });
  const jobs: LiveJob[] = [];
  for (const raw of listed) {
    const job = liveJobFromApi(raw);
    if (!job) continue;
    registerDestinationSecrets(job.destination_conf);
    jobs.push(job);
  }
  return jobs;
}

async function applyOne(step: Step, ctx: ApplyContext): Promise<void> {
  const data = step.data as LogpushApplyData;
  const base = `/zones/${ctx.owner.id}/logpush/jobs`;
  switch (data.op) {
    case 'create':
      await ctx.client.request('POST', base, { body: data.body });
      return;
    case 'update':
      await ctx.client.request('PUT', `${base}/${data.id}`, { body: data.body });
      return;
    case 'delete':
      // Already gone since the plan (404) counts as done.
      await deleteIfPresent(ctx.client, `${base}/${data.id}`);
      return;
  }
}

export const logpushRuntime: KindRuntime<DesiredLogpush, LiveJob[]> = {
  read: (ctx) => readJobs(ctx.client, ctx.owner.id),
  plan: (desired, live, ctx) => {
    const locate = (path: string) => whereInFile(ctx.desired.locations, path);
    return planOwnedLogpush({
      desired,
      live,
      owner: ownerSettingsOf(ctx.entry),
      zone: ctx.owner.name,
      locate,
      plan: (seen) => planLogpush(ctx.owner.name, desired, seen, locate, ctx.warn),
    });
  },
  apply: (steps, ctx) => applyInOrder(steps, ctx, applyOne),
};
