/**
 * Writes DNS changes: through POST /zones/{id}/dns_records/batch in chunks of the zone's limit
 * (deletes, then patches, then posts, the order the API itself executes a batch in), falling back
 * to one call per record when the target has no batch endpoint (404 on /batch).
 *
 * A batch answers with every record it deleted, patched and created (./settle.ts turns that and the
 * records read before into the zone's records after, for the read-back). A batch is
 * all-or-nothing on the API side, so a refused chunk applies none of its steps (the ones
 * the API names fail, the others are not run); a chunk whose outcome is unknown (timeout, reset,
 * 5xx) reports `unknown` and is never re-sent here: the engine re-reads the zone and re-plans.
 */
import type { ApplyContext, Requester, Step, StepResult } from '../../core/runtime.js';
import { batchLimit } from './batch-limit.js';
import type { DnsStepData } from './plan.js';
import { LiveAfterBatches } from './settle.js';

/** Clients (targets) known to have no batch endpoint; remembered so each zone does not probe again. */
const noBatch = new WeakSet<Requester>();

interface ErrorLike {
  message?: string;
  /** the API's errors; a batch refusal names the change at fault with `source.pointer` (`/posts/3`) */
  errors?: { source?: { pointer?: string } }[];
  status?: number;
  outcomeUnknown?: boolean;
  /** refused because already as planned or already gone: re-read like an unknown outcome */
  alreadyTrue?: boolean;
  hasCode?(code: number): boolean;
}

const OP_ORDER: Record<DnsStepData['op'], number> = { delete: 0, patch: 1, post: 2 };

function oneLine(err: unknown): string {
  return String((err as ErrorLike)?.message ?? err).split('\n')[0];
}

function failAll(steps: Step[], err: unknown): StepResult[] {
  const e = err as ErrorLike;
  const status = e?.outcomeUnknown || e?.alreadyTrue ? 'unknown' : 'failed';
  return steps.map((s) => ({ id: s.id, status, error: oneLine(err) }));
}

/**
 * A refused batch wrote nothing. When the API names the changes at fault (`source.pointer`, e.g.
 * `/posts/1`), only their steps failed; the others were refused with them and are reported as not
 * run, so a report does not blame a record for its neighbour's conflict. Without a pointer (or with
 * an unknown outcome) every step of the chunk carries the error.
 */
function failBatch(chunk: Step[], at: Map<string, Step>, err: unknown): StepResult[] {
  const e = err as ErrorLike;
  if (e?.outcomeUnknown || e?.alreadyTrue) return failAll(chunk, err);
  const blamed = new Set<string>();
  for (const item of e?.errors ?? []) {
    const step = item.source?.pointer ? at.get(item.source.pointer) : undefined;
    if (step) blamed.add(step.id);
  }
  if (blamed.size === 0) return failAll(chunk, err);
  return chunk.map((s) =>
    blamed.has(s.id)
      ? { id: s.id, status: 'failed', error: oneLine(err) }
      : { id: s.id, status: 'not-run', error: 'the batch it was sent in was refused for another record' },
  );
}

export async function applyDns(steps: Step[], ctx: ApplyContext): Promise<StepResult[]> {
  const ordered = [...steps].sort(
    (a, b) => OP_ORDER[(a.data as DnsStepData).op] - OP_ORDER[(b.data as DnsStepData).op],
  );
  const limit = batchLimit(ctx.owner.info);
  const results: StepResult[] = [];
  // the batches' answers hold every record they wrote: with the live records read before, they
  // tell the zone's records after, so the read-back needs no second read of the zone
  const after = LiveAfterBatches.from(ctx.live, ctx.owner.name);
  for (let i = 0; i < ordered.length; i += limit) {
    const chunk = ordered.slice(i, i + limit);
    const done = noBatch.has(ctx.client)
      ? await applySingly(chunk, ctx)
      : await applyBatch(chunk, ctx, after);
    results.push(...done);
    if (done.some((r) => r.status !== 'done')) {
      for (const s of ordered.slice(i + limit)) results.push({ id: s.id, status: 'not-run' });
      return results;
    }
  }
  const live = after?.value();
  if (live) ctx.settled?.(live);
  return results;
}

async function applyBatch(
  chunk: Step[],
  ctx: ApplyContext,
  after: LiveAfterBatches | undefined,
): Promise<StepResult[]> {
  const body = { deletes: [] as unknown[], patches: [] as unknown[], posts: [] as unknown[] };
  /** `/posts/3` -> the step behind that change (the API's error pointers) */
  const at = new Map<string, Step>();
  for (const s of chunk) {
    const d = s.data as DnsStepData;
    const list = d.op === 'delete' ? 'deletes' : d.op === 'patch' ? 'patches' : 'posts';
    at.set(`/${list}/${body[list].length}`, s);
    if (d.op === 'delete') body.deletes.push({ id: d.id });
    else if (d.op === 'patch') body.patches.push({ id: d.id, ...d.fields });
    else body.posts.push(d.record);
  }
  try {
    const answer = await ctx.client.request('POST', `/zones/${ctx.owner.id}/dns_records/batch`, { body });
    after?.add(answer.result);
  } catch (err) {
    const e = err as ErrorLike;
    if (e?.status === 404 && !e.hasCode?.(81044)) {
      ctx.log(`dns: ${ctx.owner.name}: the target has no batch endpoint; writing one record per call`);
      noBatch.add(ctx.client);
      after?.unknown();
      return applySingly(chunk, ctx);
    }
    return failBatch(chunk, at, err);
  }
  ctx.progress(chunk.length);
  return chunk.map((s) => ({ id: s.id, status: 'done' }));
}

async function applySingly(chunk: Step[], ctx: ApplyContext): Promise<StepResult[]> {
  const base = `/zones/${ctx.owner.id}/dns_records`;
  const results: StepResult[] = [];
  for (let i = 0; i < chunk.length; i++) {
    const s = chunk[i];
    const d = s.data as DnsStepData;
    try {
      if (d.op === 'post') await ctx.client.request('POST', base, { body: d.record });
      else if (d.op === 'patch') await ctx.client.request('PATCH', `${base}/${d.id}`, { body: d.fields });
      else {
        try {
          await ctx.client.request('DELETE', `${base}/${d.id}`);
        } catch (err) {
          // already gone is what a delete wants
          if (!(err as ErrorLike)?.hasCode?.(81044)) throw err;
        }
      }
      results.push({ id: s.id, status: 'done' });
      ctx.progress(1);
    } catch (err) {
      results.push(...failAll([s], err));
      for (const rest of chunk.slice(i + 1)) results.push({ id: rest.id, status: 'not-run' });
      break;
    }
  }
  return results;
}
