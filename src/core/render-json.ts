/**
 * The JSON plan (`--format json`) and the saved plan file (`--out`) share one documented shape
 * (docs/plan-and-apply.md, "The json format"). Keys are stable and snake_case; steps come in
 * apply order. Every string is redacted, so secrets never reach a file or a pipe; a step's strings
 * with redactForStep (its `${env:...}` values masked, the same text in other steps shown).
 * Kind-private `data` (request bodies) is never included.
 */
import { redact, redactAroundSteps, redactForStep } from '../redact.js';
import { countActions, type Plan } from './plan.js';
import type { Step } from './runtime.js';

export const PLAN_FORMAT_VERSION = 1;

export interface JsonStep {
  id: string;
  owner: { scope: string; name: string; id: string | null };
  kind: string;
  action: Step['action'];
  address: string;
  summary: string;
  irreversible: boolean;
  depends_on: string[];
  changes: { path: string; before: unknown; after: unknown }[];
  before: unknown;
  after: unknown;
  reason: string | null;
  live_id: string | null;
  fingerprint: string;
  /** only on an update that renames the live object in place (`renamed_from`) */
  rename?: { from: string; to: string };
}

export interface JsonPlan {
  format_version: number;
  target: string;
  changes: boolean;
  summary: Record<
    'create' | 'update' | 'delete' | 'migrate' | 'report' | 'irreversible' | 'api_calls',
    number
  > & {
    /** API requests made to read the live state (present when they were counted: every CLI plan) */
    api_reads?: number;
  };
  guards: { owner: string; kind: string; message: string }[];
  steps: JsonStep[];
}

export function toJsonStep(s: Step): JsonStep {
  return {
    id: s.id,
    owner: { scope: s.owner.scope, name: s.owner.name, id: s.owner.id ?? null },
    kind: s.kind,
    action: s.action,
    address: s.address,
    summary: s.summary,
    irreversible: s.irreversible,
    depends_on: s.dependsOn,
    changes: s.changes,
    before: s.before ?? null,
    after: s.after ?? null,
    reason: s.reason ?? null,
    live_id: s.liveId ?? null,
    fingerprint: s.fingerprint,
    ...(s.rename !== undefined ? { rename: { from: s.rename.from, to: s.rename.to } } : {}),
  };
}

export function toJsonPlan(plan: Plan, target: string): JsonPlan {
  return {
    format_version: PLAN_FORMAT_VERSION,
    target,
    changes: plan.steps.length > 0,
    summary: {
      ...countActions(plan.steps),
      // the same count the text summary gives ("N irreversible"): steps that need --allow-irreversible
      irreversible: plan.steps.filter((s) => s.irreversible).length,
      api_calls: plan.calls,
      ...(plan.reads !== undefined ? { api_reads: plan.reads } : {}),
    },
    guards: plan.guards,
    steps: plan.steps.map(toJsonStep),
  };
}

function mapStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = mapStrings(x, f);
    return out;
  }
  return v;
}

/**
 * JSON text with every string redacted before escaping (a secret with a quote still matches).
 * `sources[i]` is the desired entry of `value.steps[i]` (Step.source): its strings are redacted
 * for that step; a step without one, and everything outside the steps, with redact().
 */
export function redactedJson(value: { steps?: unknown[] }, sources: (string | undefined)[] = []): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      k === 'steps' && Array.isArray(v)
        ? v.map((s, i) => mapStrings(s, (t) => redactForStep(t, sources[i])))
        : mapStrings(v, redact);
  }
  // last, on the escaped text: every secret but the env values placed in a step (done above)
  return redactAroundSteps(JSON.stringify(out, null, 2));
}

export function renderJson(plan: Plan, target: string): string {
  return redactedJson(
    toJsonPlan(plan, target),
    plan.steps.map((s) => s.source),
  );
}
