/**
 * Helpers shared by the kinds (and their commands), on the kinds' Requester: applying a group of
 * steps in order, finding a zone, and the file:line:col
 * of a dotted path for plan-time errors. Not a kind: no kind owns them, so none depends on another.
 */
import { listAll } from '../../core/list.js';
import type { ApplyContext, Requester, Step, StepResult } from '../../core/runtime.js';
import { ID32 } from '../../rules/shared/values.js';

/** One line for a failed API call, without a stack: the client's errors already say method, path, code. */
export function stepErrorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** True when the API may have applied the request although it failed (the client's ApiError). */
export function outcomeUnknown(err: unknown): boolean {
  return Boolean(
    err &&
    typeof err === 'object' &&
    ((err as { outcomeUnknown?: unknown }).outcomeUnknown === true ||
      (err as { alreadyTrue?: unknown }).alreadyTrue === true),
  );
}

export function httpStatus(err: unknown): number | undefined {
  const status = err && typeof err === 'object' ? (err as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Applies steps one by one in the given order (their dependencies are done already). After a
 * failure no new write starts (docs/reference/design.md section 5): the rest are reported as not run. A write whose outcome
 * is unknown is reported so, never repeated here: the engine re-reads and re-plans.
 */
export async function applyInOrder(
  steps: Step[],
  ctx: ApplyContext,
  applyOne: (step: Step, ctx: ApplyContext) => Promise<void>,
): Promise<StepResult[]> {
  const results: StepResult[] = [];
  let stopped = false;
  for (const step of steps) {
    if (stopped) {
      results.push({ id: step.id, status: 'not-run' });
      continue;
    }
    try {
      await applyOne(step, ctx);
      results.push({ id: step.id, status: 'done' });
    } catch (err) {
      results.push({
        id: step.id,
        status: outcomeUnknown(err) ? 'unknown' : 'failed',
        error: stepErrorMessage(err),
      });
      stopped = true;
    }
    ctx.progress(1);
  }
  return results;
}

/** DELETE that treats 404 as done: the object is already gone, which is what was wanted. */
export async function deleteIfPresent(client: Requester, path: string): Promise<void> {
  try {
    await client.request('DELETE', path);
  } catch (err) {
    if (httpStatus(err) !== 404) throw err;
  }
}

/** A zone as the helper commands need it. */
export interface ZoneRef {
  id: string;
  name: string;
}

/**
 * Finds a zone by id (32 hex) or by name, for the helper commands that take `ZONE`. A name is
 * looked up with the list filter (exact, case-insensitive at the API); not found is a UserError-
 * worthy message, returned as undefined so the caller words it.
 */
export async function findZone(client: Requester, ref: string): Promise<ZoneRef | undefined> {
  const wanted = ref.trim().toLowerCase().replace(/\.$/, '');
  if (ID32.test(wanted)) {
    try {
      const res = await client.request<{ id: string; name: string } | null>('GET', `/zones/${wanted}`);
      if (res.result) return { id: res.result.id, name: res.result.name };
    } catch (err) {
      if (httpStatus(err) !== 404 && httpStatus(err) !== 400) throw err;
    }
  }
  const zones = await listAll<{ id: string; name: string }>(client, '/zones', {
    query: { name: wanted },
    perPage: 50,
  });
  const match = zones.find((z) => z.name.toLowerCase() === wanted);
  return match ? { id: match.id, name: match.name } : undefined;
}

/**
 * `file:line:col` of a dotted path of the desired-state file (or of its nearest ancestor that has a
 * location), for plan-time errors that should say where, like validation errors do.
 */
export function whereInFile(
  locations: Map<string, { file: string; line: number; col: number }>,
  path: string,
) {
  for (let p = path; p; p = p.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) {
    const at = locations.get(p);
    if (at) return `${at.file}:${at.line}:${at.col}`;
    if (!/(\.[^.[\]]+|\[\d+\])$/.test(p)) break;
  }
  return undefined;
}

/** `file:line:col: path: message` when the place is known, `path: message` otherwise. */
export function placed(at: string | undefined, path: string, message: string): string {
  return `${at ? `${at}: ` : ''}${path}: ${message}`;
}
