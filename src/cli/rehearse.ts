/**
 * `plan --rehearse`: the plan applied to a sandbox first. The live state the plan read is loaded
 * into an in-process local API over `:memory:` (as fixtures, src/core/export/fixtures.ts), the same
 * apply engine runs the plan there, and the sandbox is planned again. The real target gets reads
 * and, for what only it can judge (a Logpush ownership challenge it issued), the API's
 * side-effect-free validations (KindFixtures.prove); every write goes to the sandbox.
 */
import { ApiClient } from '../client/index.js';
import type { DesiredState } from '../config/model.js';
import { applyPlan } from '../core/apply.js';
import type { Auth } from '../client/types.js';
import { fixturesFromLive, withFixtureReads } from '../core/export/fixtures.js';
import { buildPlan, type LiveState, type Plan, type RuntimeKind } from '../core/plan.js';
import { readLive } from '../core/read.js';
import { stepName, type OwnerRef, type Requester, type Step } from '../core/runtime.js';
import { startSandbox } from './pipeline/target.js';

export interface Rehearsal {
  /** steps applied in the sandbox */
  applied: number;
  /** steps the sandbox refused, with the API's message; `label` names the step as apply's report does */
  refused: { id: string; label: string; error: string }[];
  /** irreversible steps left out (no --allow-irreversible) */
  skipped: number;
  /** steps not run: refused along with a neighbour in one batch, or after a step they depend on failed */
  notRun: number;
  /** steps of the second plan (0: converged) */
  secondPlan: number;
  /** requests the real apply would make, by method (counted in the sandbox) */
  writes: Record<string, number>;
  passed: boolean;
  /** kinds with steps in the plan that the sandbox cannot hold yet (no fixtures half): not rehearsed */
  notRehearsed: string[];
  /** the side-effect-free validations sent to the real target (`POST /zones/.../validate`) */
  checks: string[];
}

export async function rehearse(input: {
  desired: DesiredState;
  kinds: RuntimeKind[];
  live: LiveState;
  plan: Plan;
  /** the real target: asked only for the kinds' extra fixtures reads (GET) and their validations */
  target: { client: Requester; auth?: Auth };
  allowIrreversible?: boolean;
}): Promise<Rehearsal> {
  // only kinds whose live state the sandbox can hold are rehearsed; the others would meet an empty
  // sandbox and report refusals (or successes) production would not give
  const kinds = input.kinds.filter((k) => k.runtime.ownerKind || k.def.fixtures);
  const notRehearsed = [
    ...new Set(input.plan.steps.map((s) => s.kind).filter((n) => !kinds.some((k) => k.name === n))),
  ];
  const accounts = new Set<string>(input.desired.accounts.map((a) => a.id));
  for (const z of input.desired.zones) if (z.account) accounts.add(z.account);
  // what a kind's sandbox needs beyond its plan read (KindFixtures.read with for: 'sandbox', GETs),
  // and what the target alone can judge of the plan's steps (KindFixtures.prove: Logpush asks it to
  // validate the ownership challenges of new destinations, so the sandbox accepts exactly those)
  const copied = await withFixtureReads(input.live, kinds, input.target, input.plan.steps);
  const server = await startSandbox(fixturesFromLive(copied.live, kinds), [...accounts]);
  try {
    const token = server.token;
    const inner = new ApiClient({
      baseUrl: server.baseUrl,
      auth: { kind: 'token', token },
      backoffBaseMs: 10,
    });
    const writes: Record<string, number> = {};
    let counting = true;
    const client = {
      request: ((method: string, path: string, options?: unknown) => {
        const m = method.toUpperCase();
        if (counting && m !== 'GET') writes[m] = (writes[m] ?? 0) + 1;
        return inner.request(method, path, options as never);
      }) as ApiClient['request'],
    };
    const auth = { kind: 'token' as const, token };
    const { plan, live } =
      (notRehearsed.length === 0 ? copyOfPlan(input.plan, input.live) : undefined) ??
      (await sandboxView(input.desired, kinds, client, auth));
    const report = await applyPlan(plan, {
      client,
      kinds: kinds,
      desired: input.desired,
      live,
      auth,
      allowIrreversible: input.allowIrreversible,
      // the second plan below reads every owner again: it sees whatever apply's read-back would
      readBack: false,
    });
    counting = false;
    const after = buildPlan(input.desired, await readLive(input.desired, kinds, client, { auth }), kinds);
    const refused = report.failed.map((f) => ({
      id: f.step.id,
      label: stepName(f.step),
      error: f.error,
    }));
    return {
      applied: report.done.length + report.resolved.length,
      refused,
      skipped: report.skipped.length,
      notRun: report.notRun.length,
      secondPlan: after.steps.length,
      writes,
      passed: refused.length === 0 && after.steps.length === 0,
      notRehearsed,
      checks: copied.checks,
    };
  } finally {
    await server.close();
  }
}

/**
 * The plan and live state the rehearsal applies, when they can be the ones `plan` already made: the
 * sandbox was loaded from that live state with the same ids (the fixtures' promise, held step for
 * step by test/rehearse/export-fixtures.test.ts), so reading it back and planning again would give
 * the same steps. Applying them is also exactly what the real apply would send.
 * A copy, since apply writes into what it is given and `apply --rehearse-first` applies the
 * original for real afterwards: apply sets a created owner's id and info on the live owner and puts
 * each group's read-back into the owner's map (src/core/apply.ts), and may rewrite a step after an
 * unknown outcome. So the owners and their maps are copied (the values in them are replaced, never
 * changed: planning is pure), the steps are cloned (small beside a 10,000-record live state, which
 * a whole structuredClone would copy for nothing), and each step points at its copied owner.
 * Undefined, and the sandbox is read and planned instead (sandboxView), when the plan holds steps
 * of kinds the sandbox cannot hold (the sandbox's plan leaves them out) or a step will not clone.
 * A copy that is not faithful cannot pass unnoticed either way: a step whose object the sandbox
 * lacks is refused, and whatever the sandbox holds that the plan did not expect shows in the second
 * plan, which is always read from the sandbox.
 */
export function copyOfPlan(plan: Plan, live: LiveState): { plan: Plan; live: LiveState } | undefined {
  const key = (o: OwnerRef) => `${o.scope}\u0000${o.name}`;
  const owners = live.owners.map((o) => ({ ...o, owner: { ...o.owner }, live: new Map(o.live) }));
  const ownerByKey = new Map(owners.map((o) => [key(o.owner), o.owner]));
  let steps: Step[];
  try {
    steps = structuredClone(plan.steps);
  } catch {
    return undefined;
  }
  for (const s of steps) s.owner = ownerByKey.get(key(s.owner)) ?? s.owner;
  const planOwners = plan.owners.map((o) => ownerByKey.get(key(o)) ?? { ...o });
  return { plan: { ...plan, steps, owners: planOwners }, live: { ...live, owners } };
}

/** The sandbox's own view: read it and plan there (ids are the target's, so the steps are too). */
async function sandboxView(
  desired: DesiredState,
  kinds: RuntimeKind[],
  client: Requester,
  auth: Auth,
): Promise<{ plan: Plan; live: LiveState }> {
  const live = await readLive(desired, kinds, client, { auth });
  return { plan: buildPlan(desired, live, kinds), live };
}

/** 1204 -> `1,204`; not toLocaleString, whose first call loads the ICU data (tens of ms) */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const count = (n: number, noun: string) => `${thousands(n)} ${noun}${n === 1 ? '' : 's'}`;

/** The verdict's first line, e.g. `rehearsed: 1,204 steps applied in the sandbox, second plan empty`. */
function headline(r: Rehearsal): string {
  return (
    `rehearsed: ${count(r.applied, 'step')} applied in the sandbox, ` +
    (r.secondPlan === 0 ? 'second plan empty' : `second plan has ${count(r.secondPlan, 'step')}`) +
    (r.skipped > 0 ? `, ${thousands(r.skipped)} skipped` : '') +
    (r.notRun > 0 ? `, ${thousands(r.notRun)} not run` : '')
  );
}

function writesText(r: Rehearsal): string {
  const w = Object.entries(r.writes)
    .map(([m, n]) => `${thousands(n)} ${m}`)
    .join(', ');
  return `the real apply would send: ${w || 'no write'}`;
}

const NOT_REHEARSED = 'not rehearsed (the sandbox cannot hold their live state yet)';
const CHECKED = 'checked with the target (writes nothing)';

/** The verdict for a terminal (stderr): the headline, then one indented line per detail. */
export function rehearsalLines(r: Rehearsal): string[] {
  const lines = [headline(r)];
  for (const f of r.refused) lines.push(`  refused: ${f.label}: ${f.error}`);
  lines.push(`  ${writesText(r)}`);
  if (r.checks.length > 0) lines.push(`  ${CHECKED}: ${countedRequests(r.checks).join(', ')}`);
  if (r.notRehearsed.length > 0) lines.push(`  ${NOT_REHEARSED}: ${r.notRehearsed.join(', ')}`);
  return lines;
}

/** A code span: API messages and step names hold `_`, `*`, `<`, which must read as written. */
const code = (s: string) => `\`${s.replace(/\r?\n/g, ' ').replace(/`/g, "'")}\``;

function verdictSentence(r: Rehearsal): string {
  if (r.refused.length > 0)
    return `**The rehearsal did not pass**: the API refused ${count(r.refused.length, 'step')} (below), so applying this plan would fail.`;
  if (!r.passed)
    return `**The rehearsal did not pass**: after the apply, planning again still finds ${count(r.secondPlan, 'step')}, so this plan would not converge.`;
  return r.notRehearsed.length > 0
    ? 'The rehearsal passed for the kinds it could try: every step was accepted and planning again found nothing left to do.'
    : 'The rehearsal passed: every step was accepted and planning again found nothing left to do.';
}

/**
 * The verdict for the Markdown plan, shown under its target line: the headline in bold (what a
 * reviewer reads first), a line saying whether it passed, then the details as a list.
 */
export function rehearsalMarkdown(r: Rehearsal): string[] {
  const lines = [`**${headline(r)}**`, '', verdictSentence(r), ''];
  for (const f of r.refused) lines.push(`- refused: ${code(f.label)}: ${code(f.error)}`);
  lines.push(`- ${writesText(r)}`);
  if (r.checks.length > 0) lines.push(`- ${CHECKED}: ${countedRequests(r.checks).map(code).join(', ')}`);
  if (r.notRehearsed.length > 0) lines.push(`- ${NOT_REHEARSED}: ${r.notRehearsed.map(code).join(', ')}`);
  return lines;
}

/** `POST /zones/Z/logpush/ownership/validate` twice -> `2 POST /zones/Z/logpush/ownership/validate` */
function countedRequests(requests: string[]): string[] {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n} ${r}`);
}
