/**
 * `zoneplan page-shield report ZONE`: a read-only report of what Page Shield detected on a zone
 * (scripts, connections, cookies), malicious scripts first. Same target selection as `plan`
 * (src/cli/pipeline/target.ts); `--file` lends a desired-state file's `target:` (and puts the embedded
 * local API's database beside it). Also home of `openHelperTarget`, shared with `logpush ownership`.
 */
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { DesiredState } from '../config/model.js';
import { UserError } from '../errors.js';
import { redact } from '../redact.js';
import { globalsOf } from './globals.js';
import { createOutput, type Output } from './output.js';
import { embeddedStoreHint, type Target } from './pipeline/target.js';

/** Statuses a detected item can have (docs/reference/api-facts.md); the report asks for these by default. */
const STATUSES = ['active', 'infrequent', 'inactive'];
const DEFAULT_STATUSES = 'active,infrequent';
const FORMATS = ['text', 'json', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

function emptyDesired(): DesiredState {
  return { version: 1, source: { files: [], sha256: '' }, accounts: [], zones: [], locations: new Map() };
}

/**
 * Opens the target a helper command talks to, chosen exactly as for `plan`. Without `--file`, the
 * embedded local API (when it is the target) lives in `.zoneplan/local.db` under the current folder.
 */
export async function openHelperTarget(
  command: Command,
  file: string | undefined,
): Promise<{ target: Target; out: Output; format: Format }> {
  const globals = globalsOf(command);
  const out = createOutput(globals);
  const format = (globals.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new UserError(`--format must be one of ${FORMATS.join(', ')}`);
  let desired = emptyDesired();
  let path = join(globals.io.cwd, 'zoneplan.yaml');
  if (file) {
    const { loadDesiredState } = await import('../config/load.js');
    desired = (await loadDesiredState(file, { allowMissingEnv: true, env: globals.io.env })).desired;
    path = file;
  }
  const { resolveTarget } = await import('./pipeline/target.js');
  const target = await resolveTarget({
    desired,
    file: path,
    globals,
    log: globals.verbose ? out.debug : undefined,
  });
  out.info(target.description);
  for (const note of target.notes) out.info(note);
  return { target, out, format };
}

/** Turns `ZONE` into an id and name, or says plainly that the target has no such zone. */
export async function resolveHelperZone(target: Target, zone: string): Promise<{ id: string; name: string }> {
  const { findZone } = await import('../kinds/shared/api.js');
  const found = await findZone(target.client, zone);
  if (!found)
    throw new UserError(
      `zone ${zone} was not found at this target (give its name or its 32-hex id)${embeddedStoreHint(target)}`,
    );
  return found;
}

function parseStatuses(raw: string): string[] {
  const list = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const bad = list.filter((s) => !STATUSES.includes(s));
  if (list.length === 0 || bad.length > 0) {
    throw new UserError(`--status takes a comma list of ${STATUSES.join(', ')}; got "${raw}"`);
  }
  return list;
}

async function report(
  zone: string,
  opts: { status: string; file?: string },
  command: Command,
): Promise<void> {
  const statuses = parseStatuses(opts.status);
  const { target, out, format } = await openHelperTarget(command, opts.file);
  try {
    if (target.auth?.kind === 'key') {
      throw new UserError(
        'Page Shield needs an API token, but only CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY are set',
      );
    }
    const { listAll } = await import('../core/list.js');
    const { PAGE_SHIELD_PER_PAGE: perPage } = await import('../kinds/page-shield/runtime.js');
    const { scriptFromApi, connectionFromApi, cookieFromApi } =
      await import('../kinds/page-shield/scripts.js');
    const { buildReport } = await import('../kinds/page-shield/report.js');
    const { renderReport } = await import('../kinds/page-shield/report-render.js');
    const z = await resolveHelperZone(target, zone);
    const base = `/zones/${z.id}/page_shield`;
    const status = statuses.join(',');
    // Cookies have no status filter in the API: all of them are listed.
    const [scripts, connections, cookies] = await Promise.all([
      listAll(target.client, `${base}/scripts`, { query: { status }, perPage }),
      listAll(target.client, `${base}/connections`, { query: { status }, perPage }),
      listAll(target.client, `${base}/cookies`, { perPage }),
    ]);
    const built = buildReport({
      zone: z,
      statuses,
      scripts: scripts.map(scriptFromApi),
      connections: connections.map(connectionFromApi),
      cookies: cookies.map(cookieFromApi),
    });
    out.out(redact(renderReport(built, format)));
  } finally {
    await target.close();
  }
}

export function registerPageShield(program: Command): void {
  const group = program.command('page-shield').description('Page Shield helpers');
  group
    .command('report <zone>')
    .description('report detected scripts, connections and cookies, malicious first (ZONE: name or id)')
    .option('--status <list>', `comma list of ${STATUSES.join(', ')}`, DEFAULT_STATUSES)
    .addOption(new Option('--format <format>', 'output format').choices([...FORMATS]))
    .option('-f, --file <file>', "use this desired-state file's target (as plan does)")
    .action(report);
}
