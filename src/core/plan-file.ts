/**
 * The saved plan (`plan --out plan.json`, `apply plan.json`): the JSON plan plus what it was based
 * on: the desired file (path relative to the plan file, and its sha256) and the target. Applying
 * it re-reads live state and re-plans; the saved plan is refused, naming the objects, when the
 * desired file changed, the target differs, or any step's live object moved (fingerprint), vanished
 * or appeared (Terraform's "Saved plan is stale"). No secret is ever written: see redactedJson.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { redact } from '../redact.js';
import type { Plan } from './plan.js';
import { redactedJson, toJsonPlan, type JsonPlan } from './render-json.js';

export const PLAN_FILE_KIND = 'zoneplan-plan';

export interface SavedPlan extends JsonPlan {
  kind: typeof PLAN_FILE_KIND;
  created_at: string;
  desired: { file: string; sha256: string };
}

export function writePlanFile(
  path: string,
  plan: Plan,
  meta: { target: string; desiredFile: string; desiredSha256: string; now?: Date },
): void {
  const file = relative(dirname(resolve(path)), resolve(meta.desiredFile)) || meta.desiredFile;
  const saved: SavedPlan = {
    kind: PLAN_FILE_KIND,
    created_at: (meta.now ?? new Date()).toISOString(),
    desired: { file, sha256: meta.desiredSha256 },
    ...toJsonPlan(plan, meta.target),
  };
  writeFileSync(path, redactedJson(saved) + '\n');
}

/** Whether a path holds a saved plan (JSON with our kind) rather than a desired-state file. */
export function looksLikePlanFile(path: string): boolean {
  if (!/\.json$/i.test(path)) return false;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as { kind?: unknown };
    return v?.kind === PLAN_FILE_KIND;
  } catch {
    return false;
  }
}

export function readPlanFile(path: string): SavedPlan & { desiredPath: string } {
  let v: SavedPlan;
  try {
    v = JSON.parse(readFileSync(path, 'utf8')) as SavedPlan;
  } catch (err) {
    throw new UserError(`${path}: not a readable plan file (${(err as Error).message.split('\n')[0]})`);
  }
  if (v?.kind !== PLAN_FILE_KIND || !Array.isArray(v.steps) || typeof v.desired?.sha256 !== 'string') {
    throw new UserError(`${path}: not a zoneplan plan file (made by \`zoneplan plan --out\`)`);
  }
  if (v.format_version !== 1) {
    throw new UserError(`${path}: plan format ${String(v.format_version)} is not supported by this zoneplan`);
  }
  return { ...v, desiredPath: resolve(dirname(resolve(path)), v.desired.file) };
}

/** Why a saved plan no longer holds, one line per object; empty when it still does. */
export function staleReasons(saved: SavedPlan, fresh: Plan): string[] {
  // the file holds redacted ids (a create's key may contain an `${env:...}` value): compare so
  const now = new Map(fresh.steps.map((s) => [redact(s.id), s]));
  const was = new Set(saved.steps.map((s) => s.id));
  const out: string[] = [];
  for (const s of saved.steps) {
    const f = now.get(s.id);
    const where = `${s.owner.name} ${s.kind} ${s.address}`;
    if (!f) out.push(`${where}: changed since the plan was made (the step is no longer needed or differs)`);
    else if (f.fingerprint !== s.fingerprint)
      out.push(`${where}: the live object changed since the plan was made`);
    else if (f.action !== s.action) out.push(`${where}: now needs ${f.action} instead of ${s.action}`);
  }
  for (const f of fresh.steps) {
    if (!was.has(redact(f.id)))
      out.push(`${f.owner.name} ${f.kind} ${f.address}: a new change (${f.action}) not in the plan`);
  }
  return out.map(redact);
}
