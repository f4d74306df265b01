/**
 * Export of a zone's Logpush jobs (identity = name). Filters are written as YAML objects (the API
 * holds them as JSON strings); output options and upload limits only when they differ from the
 * API's defaults, which is how the planner compares them.
 *
 * Secrets: every secret part of a destination (query values that are not public, user info) is
 * replaced by a `${env:NAME}` reference with a comment naming the variable; the export never
 * contains the value. A job without a name, or with a name another job has, cannot be matched by
 * the planner: it becomes a comment and `purge` is turned off so that `plan` does not delete it.
 */
import type { ExportContext, ExportResult, LayoutHint } from '../../core/export/types.js';
import { itemIndex } from '../../core/export/item-index.js';
import { escapeEnv } from '../../core/export/escape.js';
import {
  maskDestination,
  parseDestination,
  replaceTokenSegments,
  UPLOAD_FIELDS,
} from '../../rules/logpush/index.js';
import type { LiveJob } from './jobs.js';
import type { Entry } from '../../rules/shared/values.js';

/**
 * Whether a query parameter is public (region, endpoint, ...). The shared rules keep that list
 * private to maskDestination, so it is asked: a public value survives masking.
 */
function isPublicParam(key: string): boolean {
  return !maskDestination(`x://h?${encodeURIComponent(key)}=v`).includes('[REDACTED]');
}

export interface SecretReference {
  /** the destination with every secret part replaced by `${env:NAME}` */
  conf: string;
  /** variables in the order they appear, with what each stands for */
  variables: { name: string; part: string }[];
}

/**
 * Replaces the secret parts of a destination with references. The raw (still percent-encoded)
 * text of each part is what the variable must hold, so the loaded file is byte-identical to the live
 * destination and plans to nothing.
 *
 * A literal `${env:` in a live value must not read as a reference when the file is loaded. The
 * destination is the one value that mixes live text with references, so it is escaped here
 * (escapeEnv), piece by piece, and listed as `verbatim` for the writer, which escapes every other
 * string itself.
 */
export function referenceSecrets(conf: string, nameFor: (part: string) => string): SecretReference {
  const parsed = parseDestination(conf);
  const variables: SecretReference['variables'] = [];
  if (!parsed) {
    // Not a URI the rules can split: the whole value is treated as a secret.
    const name = nameFor('destination_conf');
    return { conf: `\${env:${name}}`, variables: [{ name, part: 'the whole destination_conf' }] };
  }
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(?:\?([^#]*))?$/i.exec(conf)!;
  let authority = escapeEnv(m[2]);
  const at = m[2].lastIndexOf('@');
  if (at >= 0) {
    const name = nameFor('userinfo');
    variables.push({ name, part: 'the user info (user:password) before @' });
    authority = `\${env:${name}}@${escapeEnv(m[2].slice(at + 1))}`;
  }
  // a token in the path (collector URLs) is a secret like a query credential
  const path = replaceTokenSegments(parsed.scheme, escapeEnv(m[3]), () => {
    const name = nameFor('path token');
    variables.push({ name, part: 'the token in the path' });
    return `\${env:${name}}`;
  });
  const query = (m[4] ?? '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      let decoded = key;
      try {
        decoded = decodeURIComponent(key);
      } catch {
        // keep the raw key
      }
      if (value === '' || isPublicParam(decoded)) return escapeEnv(pair);
      const name = nameFor(decoded);
      variables.push({ name, part: `the ${decoded} parameter` });
      return `${escapeEnv(key)}=\${env:${name}}`;
    });
  const rebuilt = `${m[1]}${authority}${path}${query.length ? `?${query.join('&')}` : ''}`;
  return { conf: rebuilt, variables };
}

function jobEntry(job: LiveJob, destination: string): Entry {
  const e: Entry = { name: job.name, dataset: job.dataset, destination_conf: destination };
  if (!job.enabled) e.enabled = false;
  if (job.filter !== '') e.filter = JSON.parse(job.filter) as unknown;
  if (job.output_options && Object.keys(job.output_options).length > 0) e.output_options = job.output_options;
  if (job.kind !== '') e.kind = job.kind;
  for (const f of UPLOAD_FIELDS) if (typeof job[f] === 'number' && job[f] !== 0) e[f] = job[f];
  return e;
}

const shown = (j: LiveJob) => `job ${j.id}${j.name ? ` ${JSON.stringify(j.name)}` : ''} (${j.dataset})`;

export function exportLogpush(raw: unknown, ctx: ExportContext): ExportResult {
  const live = raw as LiveJob[];
  const zone = ctx.owner.name;
  const rejected: { job: LiveJob; reason: string }[] = [];
  const seen = new Set<string>();
  let kept: LiveJob[] = [];
  for (const job of [...live].sort((a, b) => a.id - b.id)) {
    if (!job.named) rejected.push({ job, reason: 'it has no name, its identity in the file' });
    else if (seen.has(job.name)) rejected.push({ job, reason: 'another job has the same name' });
    else if (job.filter !== '' && !isJson(job.filter))
      rejected.push({ job, reason: 'its filter is not JSON, so it cannot be written as an object' });
    else {
      seen.add(job.name);
      kept.push(job);
    }
  }
  kept.sort((a, b) => a.name.localeCompare(b.name));

  const build = (jobs: LiveJob[]) => {
    const layout: LayoutHint[] = [];
    const entries = jobs.map((job, i) => {
      const ref = referenceSecrets(job.destination_conf, (part) =>
        ctx.variables.name(
          ['LOGPUSH', zone, job.name, part],
          `${part} of the destination of Logpush job ${JSON.stringify(job.name)} of ${zone}`,
        ),
      );
      if (ref.variables.length > 0) {
        const lines = ref.variables.map((v) => `${v.name}: ${v.part} of the live destination`);
        layout.push({
          path: ['jobs', i, 'destination_conf'],
          commentBefore: ['secrets stay out of this file; set before plan or apply:', ...lines].join('\n'),
        });
      }
      const entry = jobEntry(job, ref.conf);
      for (const path of conditionPaths(entry.filter, ['jobs', i, 'filter']))
        layout.push({ path, flow: true });
      layout.push({ path: ['jobs', i, 'output_options', 'field_names'], flow: true });
      return entry;
    });
    return { entries, layout };
  };

  let built = build(kept);
  const problems = ctx.check({ jobs: built.entries });
  const bad = new Map<number, string>();
  for (const p of problems) {
    const i = itemIndex(p.path, 'jobs');
    if (i !== undefined && !bad.has(i)) bad.set(i, p.message);
  }
  if (bad.size > 0) {
    rejected.push(...[...bad].map(([i, reason]) => ({ job: kept[i], reason })));
    kept = kept.filter((_, i) => !bad.has(i));
    built = build(kept);
  }

  const value: Entry = {};
  const layout: LayoutHint[] = [];
  const notes: string[] = [];
  if (ctx.part) {
    value.purge = false;
    layout.push({ path: ['purge'], comment: 'off: the other files manage the other jobs' });
  }
  if (rejected.length > 0) {
    value.purge = false;
    const lines = rejected.map(({ job, reason }) => `not managed: ${shown(job)}: ${reason}`);
    layout.push({
      path: ['purge'],
      commentBefore: ['off, so that plan keeps the live jobs zoneplan cannot manage:', ...lines].join('\n'),
    });
    for (const line of lines) notes.push(`${zone}: logpush ${line}`);
  }
  value.jobs = built.entries;
  layout.push(...built.layout);
  // every destination is in file syntax already (see escapeEnv)
  const verbatim = built.entries.map((_, i) => ['jobs', i, 'destination_conf']);
  return { value, layout, notes, verbatim, counts: { jobs: kept.length, 'not managed': rejected.length } };
}

/** Paths of the conditions (`{ key, operator, value }`) of a filter, each written on one line. */
function conditionPaths(node: unknown, path: (string | number)[]): (string | number)[][] {
  if (Array.isArray(node)) return node.flatMap((item, i) => conditionPaths(item, [...path, i]));
  if (!node || typeof node !== 'object') return [];
  if ('key' in node && 'operator' in node) return [path];
  return Object.entries(node).flatMap(([k, v]) => conditionPaths(v, [...path, k]));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
