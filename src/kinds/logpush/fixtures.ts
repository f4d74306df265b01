/**
 * A zone's Logpush jobs in a fixtures export (`zones[].logpush.jobs`), each with its server id, so a
 * served copy gives the same step keys (updates and deletes are keyed by job id). Every job is
 * copied, those without a name too (a plan with purge deletes them, and must find them).
 *
 * Secrets: written to a file, every secret part of a destination is a `${env:NAME}` reference named
 * as `zoneplan export` names it (the same variable serves the desired-state export and the
 * fixtures), and the literal parts are escaped (escapeEnv). In memory (rehearsal, no namer) the
 * destination is the live one, escaped the same way: the local API reads both the same.
 *
 * Ownership: a rehearsal's value also holds the (destination, challenge) pairs the real target
 * validated for the plan's new destinations (./proofs.ts, `prove`); they go in as `proven`, in
 * memory only. A file export never writes them: there is no plan, and no challenge in a file.
 */
import { escapeEnv } from '../../core/export/escape.js';
import type { KindFixtures } from '../../core/kind.js';
import { referenceSecrets } from './export.js';
import { UPLOAD_FIELDS } from '../../rules/logpush/index.js';
import { jobsAndProofs, proveOwnership } from './proofs.js';

export const logpushFixtures: KindFixtures = {
  entry(raw, owner, ctx) {
    const zone = owner.name;
    const { jobs: live, proven } = jobsAndProofs(raw);
    const jobs = [...live]
      .sort((a, b) => a.id - b.id)
      .map((job) => {
        const label = job.named ? job.name : `job ${job.id}`;
        const namer = ctx?.variables;
        const destination = namer
          ? referenceSecrets(job.destination_conf, (part) =>
              namer.name(
                ['LOGPUSH', zone, label, part],
                `${part} of the destination of Logpush job ${JSON.stringify(label)} of ${zone}`,
              ),
            ).conf
          : escapeEnv(job.destination_conf);
        const out: Record<string, unknown> = { id: job.id };
        if (job.named) out.name = job.name;
        out.dataset = job.dataset;
        out.destination_conf = destination;
        out.enabled = job.enabled;
        if (job.filter !== '') out.filter = job.filter;
        if (job.output_options && Object.keys(job.output_options).length > 0)
          out.output_options = job.output_options;
        if (job.kind !== '') out.kind = job.kind;
        for (const f of UPLOAD_FIELDS) if (typeof job[f] === 'number') out[f] = job[f];
        return out;
      });
    const logpush: Record<string, unknown> = { jobs };
    if (!ctx?.variables && proven.length > 0)
      logpush.proven = proven.map((p) => ({
        destination_conf: escapeEnv(p.destination_conf),
        ownership_challenge: escapeEnv(p.ownership_challenge),
      }));
    return { fields: { logpush } };
  },
  prove: proveOwnership,
};
