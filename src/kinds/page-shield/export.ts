/**
 * Export of a zone's Page Shield: the feature switch and the CSP policies, normalised as the
 * planner compares them (identity = description). A policy the file cannot hold (no description, a
 * description another policy already has, a value the validator rejects) becomes a comment, and
 * `purge` is turned off so that `plan` does not delete it. The malicious script ceiling is a gate of
 * plan and drift, not live state: it is mentioned in a comment, not exported.
 */
import type { ExportContext, ExportResult, LayoutHint } from '../../core/export/types.js';
import { itemIndex } from '../../core/export/item-index.js';
import type { PageShieldPart } from './unmanaged.js';
import type { LivePolicy } from './policies.js';
import type { Entry } from '../../rules/shared/values.js';

function policyEntry(p: LivePolicy): Entry {
  const e: Entry = {
    description: p.description,
    action: p.action,
    expression: p.expression,
    value: p.value,
  };
  if (!p.enabled) e.enabled = false;
  return e;
}

const shown = (p: LivePolicy) => `policy ${p.id} ${JSON.stringify(p.description)} (${p.action})`;

export function exportPageShield(raw: unknown, ctx: ExportContext): ExportResult {
  // a part (export --unmanaged-by) has no `enabled` when the other files set it
  const live = raw as PageShieldPart;
  const zone = ctx.owner.name;
  // Id order is the planner's pairing order: the first of several policies with one description pairs.
  const byId = [...(live.policies ?? [])].sort((a, b) => a.id.localeCompare(b.id));
  const rejected: { policy: LivePolicy; reason: string }[] = [];
  const seen = new Set<string>();
  let kept: LivePolicy[] = [];
  for (const p of byId) {
    if (p.description === '')
      rejected.push({ policy: p, reason: 'it has no description, its identity in the file' });
    else if (seen.has(p.description))
      rejected.push({
        policy: p,
        reason: 'another policy has the same description, its identity in the file',
      });
    else {
      seen.add(p.description);
      kept.push(p);
    }
  }
  kept.sort((a, b) => a.description.localeCompare(b.description));
  const problems = ctx.check({ policies: kept.map(policyEntry) });
  const bad = new Map<number, string>();
  for (const p of problems) {
    const i = itemIndex(p.path, 'policies');
    if (i !== undefined && !bad.has(i)) bad.set(i, p.message);
  }
  rejected.push(...[...bad].map(([i, reason]) => ({ policy: kept[i], reason })));
  kept = kept.filter((_, i) => !bad.has(i));

  const value: Entry = {};
  if (live.enabled !== undefined) value.enabled = live.enabled;
  const layout: LayoutHint[] = [];
  const notes: string[] = [];
  if (ctx.part && kept.length + rejected.length > 0) {
    value.purge = false;
    layout.push({ path: ['purge'], comment: 'off: the other files manage the other policies' });
  }
  if (rejected.length > 0) {
    value.purge = false;
    const lines = rejected.map(({ policy, reason }) => `not managed: ${shown(policy)}: ${reason}`);
    layout.push({
      path: ['purge'],
      commentBefore: ['off, so that plan keeps the live policies zoneplan cannot manage:', ...lines].join(
        '\n',
      ),
    });
    for (const line of lines) notes.push(`${zone}: page_shield ${line}`);
  }
  // a part without policies says nothing about them (no `policies` key: none is managed)
  if (ctx.part && kept.length === 0) {
    return { value, layout, notes, counts: { policies: 0, 'not managed': rejected.length } };
  }
  value.policies = kept.map(policyEntry);
  layout.push({
    path: ['policies'],
    commentBefore:
      'identity is the description; add max_malicious_scripts: N to make plan and drift fail above N',
  });
  return { value, layout, notes, counts: { policies: kept.length, 'not managed': rejected.length } };
}
