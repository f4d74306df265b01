import type { ValidateContext } from '../../core/kind.js';
import { checkRenames, type RenameCandidate } from '../shared/renames.js';
import { validateLogpushJob } from '../../rules/logpush/index.js';
import { registerFoundSecret } from '../../redact.js';
import { registerDestinationSecrets } from './destination.js';
import { jobNameProblem } from './owners.js';
import { ownerSettingsOf } from '../shared/owners.js';
import { isObject } from '../../rules/shared/values.js';

/**
 * Offline checks of a zone's `logpush`, job by job: a job the schema refused is skipped, the others
 * are checked (`validatesPartly`), so every problem shows at once. Every job is checked as the
 * create body the API would receive, with the shared rules of src/rules/logpush/: the filter's
 * grammar, operators and limits (measured on the JSON string that is sent), the dataset, the
 * destination, output options and upload limits. Names must be unique (they are the identity).
 *
 * Destination secrets are registered with the redactor here, the first moment they are seen, so no
 * later message, plan or log can print them. Messages never quote a destination or a challenge.
 */
export function validateLogpush(value: unknown, ctx: ValidateContext): void {
  if (!isObject(value) || !Array.isArray(value.jobs)) return;
  const firstByName = new Map<string, number>();
  const renames: RenameCandidate[] = [];
  value.jobs.forEach((raw, i) => {
    const path = `${ctx.path}.jobs[${i}]`;
    if (!isObject(raw)) return;
    // renamed_from is the file's, never the API's: the shared rules check the API's body
    const { renamed_from: renamedFrom, ...fields } = raw;
    const job = withoutUnresolved(fields);
    if (typeof raw.name === 'string') {
      renames.push({
        identity: raw.name,
        path,
        ...(typeof renamedFrom === 'string' ? { renamedFrom } : {}),
      });
    }
    // An unresolved `${env:NAME}` reference is not a secret (its value is registered by the loader
    // when it is resolved); registering the reference text would mask the file's own syntax.
    if (isResolved(raw.destination_conf)) registerDestinationSecrets(raw.destination_conf);
    if (isResolved(raw.ownership_challenge)) registerFoundSecret(raw.ownership_challenge);
    // a job the schema refused is left to the schema's messages (`validatesPartly`); its secrets
    // are registered all the same
    if (ctx.schemaFailed(`jobs[${i}]`)) return;
    for (const v of validateLogpushJob(job, { mode: 'create' })) {
      ctx.error(v.path ? `${path}.${v.path}` : path, v.message);
    }
    if (
      typeof job.ownership_challenge === 'string' &&
      !/^[a-zA-Z0-9/+.\-_=]*$/.test(job.ownership_challenge)
    ) {
      ctx.error(
        `${path}.ownership_challenge`,
        'contains characters an ownership challenge never has (letters, digits and / + . - _ = only); ' +
          'copy it exactly from the challenge file the API wrote to the destination',
      );
    }
    if (typeof raw.name === 'string') {
      const problem = jobNameProblem(raw.name, ownerSettingsOf(ctx.owner)?.name);
      if (problem) ctx.error(`${path}.name`, problem);
      const first = firstByName.get(raw.name);
      if (first !== undefined) {
        ctx.error(
          `${path}.name`,
          `duplicate job name "${raw.name}" (also jobs[${first}]); names identify jobs`,
        );
      } else {
        firstByName.set(raw.name, i);
      }
    }
  });
  checkRenames(renames, 'job', ctx);
}

function isResolved(v: unknown): v is string {
  return typeof v === 'string' && !v.includes('${env:');
}

/**
 * A `${env:NAME}` reference that the loader left unresolved (e.g. `validate` run without the
 * variable) cannot be checked offline: it is replaced by a neutral word so the rest of the value
 * (a destination's scheme, bucket and region) is still checked.
 */
function withoutUnresolved(job: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(job)) {
    out[key] = typeof v === 'string' ? v.replace(/\$\{env:[^}]*\}/g, 'envvalue') : v;
  }
  return out;
}
