/**
 * The saved plan (`plan --out plan.json`, `apply plan.json`): the JSON plan plus everything it was
 * made from, so that `apply plan.json` needs no other flag: the desired-state paths as given, every
 * file read with its sha256 (paths relative to the repository root, or the working directory when
 * there is none: ./repository-root.ts), the values of the command line's variables (`--var`,
 * `--var-file`; not secrets), the selection of owners (--zone, --account, --shard), the target and
 * the sort of credential (never the credential). Applying it re-reads live state and re-plans the
 * same selection; the saved plan is refused, naming the files or objects, when any desired file
 * changed, appeared or vanished, the target differs, or any step's live object moved
 * (fingerprint), vanished or appeared (Terraform's "Saved plan is stale"). No secret is ever
 * written: see redactedJson.
 */
import { realpathSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { expandPaths } from '../config/desired-files.js';
import { MAX_FILE_BYTES } from '../config/yaml-source.js';
import { UserError } from '../errors.js';
import { MAX_DATA_FILE_BYTES, readUserFile, readUserFileSync, UserFileError } from '../read-user-file.js';
import { sha256 } from './canonical.js';
import { writeOutputFile, type OutputRules } from '../write-output-file.js';
import { redact, redactForStep } from '../redact.js';
import type { Plan } from './plan.js';
import { stepName } from './runtime.js';
import { formatShard, isSelective, parseShard, type Selection } from './selection.js';
import { redactedJson, toJsonPlan, type JsonPlan } from './render-json.js';
import { checkPlanIntegrity, checkPlanPaths, inside, planDigest } from './saved-plan-guard.js';
import { planBaseOf, repositoryRoot, type PlanBase } from './repository-root.js';
import type { Variables } from '../config/vars.js';

export const PLAN_FILE_KIND = 'zoneplan-plan';

export interface SavedPlan extends JsonPlan {
  kind: typeof PLAN_FILE_KIND;
  /** sha256 of the rest of the plan (./saved-plan-guard.ts); checked before the plan is used */
  digest?: string;
  created_at: string;
  desired: {
    /** the first file and its sha256 (what plans made before many files recorded) */
    file: string;
    sha256: string;
    /** the paths of the command line (files and directories); absent: `[file]` */
    paths?: string[];
    /** every file read, with its sha256 */
    files?: { file: string; sha256: string }[];
    /** what the paths are relative to; absent (older plans): the plan file's directory */
    relative_to?: PlanBase;
  };
  /** the values of the variables the command line gave (--var-file, --var), by name */
  variables?: Record<string, unknown>;
  /** the sort of credential a remote target was read with (never the credential itself) */
  credential?: CredentialKind;
  /** the owners planned, when the plan was restricted */
  selection?: { zones: string[]; accounts: string[]; shard?: string };
}

/** `token` (CLOUDFLARE_API_TOKEN) or `key` (CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY) */
export type CredentialKind = 'token' | 'key';

export interface PlanFileMeta {
  target: string;
  credential?: CredentialKind;
  /** the command line's variables, recorded by value */
  variables?: Variables;
  /** the directory the paths are relative to */
  cwd: string;
  paths: string[];
  files: string[];
  sha256s: string[];
  selection?: Selection;
  now?: Date;
}

/**
 * Saves the plan at `path` under the rules of `--out` (src/write-output-file.ts): `rules.inputs`
 * are never replaced, an existing file only with `force`.
 */
export function writePlanFile(
  path: string,
  plan: Plan,
  meta: PlanFileMeta,
  rules: Omit<OutputRules, 'cwd'> = { flag: '--out' },
): void {
  const { base, relativeTo } = planBaseOf(meta.cwd);
  const rel = (p: string) => relative(base, resolve(meta.cwd, p)) || '.';
  const files = meta.files.map((f, i) => ({ file: rel(f), sha256: meta.sha256s[i] }));
  const variables = [...(meta.variables ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const saved: SavedPlan = {
    kind: PLAN_FILE_KIND,
    created_at: (meta.now ?? new Date()).toISOString(),
    desired: {
      file: files[0].file,
      sha256: files[0].sha256,
      paths: meta.paths.map(rel),
      files,
      relative_to: relativeTo,
    },
    ...(variables.length > 0
      ? { variables: Object.fromEntries(variables.map(([n, v]) => [n, v.value])) }
      : {}),
    ...(meta.credential ? { credential: meta.credential } : {}),
    ...(meta.selection && isSelective(meta.selection)
      ? {
          selection: {
            zones: meta.selection.zones,
            accounts: meta.selection.accounts,
            ...(meta.selection.shard ? { shard: formatShard(meta.selection.shard) } : {}),
          },
        }
      : {}),
    ...toJsonPlan(plan, meta.target),
  };
  const sources = plan.steps.map((s) => s.source);
  const text = redactedJson(saved, sources);
  // the digest covers the plan as written (redacted), and goes first so that a reader sees it
  const digest = planDigest(JSON.parse(text) as Record<string, unknown>);
  const withDigest = text.replace(/^\{\n/, `{\n  "digest": ${JSON.stringify(digest)},\n`);
  writeOutputFile(path, withDigest + '\n', { ...rules, cwd: meta.cwd });
}

/**
 * Refuses, before the target is read, desired paths that a saved plan could not name: those
 * outside the repository root (or the working directory when there is none), symbolic links
 * resolved. `apply` would refuse them (./saved-plan-guard.ts); `plan --out` says so first.
 */
export function checkSavablePaths(paths: string[], cwd: string): void {
  const { base, relativeTo } = planBaseOf(cwd);
  const roots = [base, realOrSame(base)];
  for (const p of paths) {
    const full = realOrSame(resolve(cwd, p));
    if (roots.some((root) => inside(root, full))) continue;
    throw new UserError(
      `--out: ${p} is outside the ${relativeTo === 'repository' ? `repository root ${base}` : `working directory`}; ` +
        'a saved plan names its files relative to it (run plan from inside the checkout)',
    );
  }
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The selection a saved plan was made with (every owner when it records none). */
export function savedSelection(saved: SavedPlan): Selection {
  const s = saved.selection;
  return {
    zones: s?.zones ?? [],
    accounts: s?.accounts ?? [],
    ...(s?.shard ? { shard: parseShard(s.shard) } : {}),
  };
}

/**
 * Which desired files differ from those the plan was made from: changed, new (a file added to a
 * directory) or gone; empty when they are the same. Paths are compared resolved.
 */
export function changedFiles(
  saved: SavedPlan & { base: string },
  now: { files: string[]; sha256s: string[]; cwd: string },
): string[] {
  const was = new Map(
    (saved.desired.files ?? [{ file: saved.desired.file, sha256: saved.desired.sha256 }]).map((f) => [
      resolve(saved.base, f.file),
      f,
    ]),
  );
  const out: string[] = [];
  now.files.forEach((file, i) => {
    const before = was.get(resolve(now.cwd, file));
    if (!before) out.push(`${file} is new`);
    else if (before.sha256 !== now.sha256s[i]) out.push(`${file} changed`);
    was.delete(resolve(now.cwd, file));
  });
  for (const f of was.values()) out.push(`${f.file} is no longer read`);
  return out;
}

/**
 * changedFiles of the files as they are now, from their bytes alone: run before any of them is
 * parsed, so a file that is not the one the plan was made from is refused without a word of its
 * content in any message (its parse errors would quote it). A file that cannot be read counts as
 * changed.
 */
export async function changedSinceSaved(
  saved: SavedPlan & { base: string; desiredPaths: string[] },
  cwd: string,
): Promise<string[]> {
  const files = (await expandPaths(saved.desiredPaths, cwd)).map((f) => relative(cwd, f) || f);
  const sha256s: string[] = [];
  for (const file of files) {
    try {
      sha256s.push(sha256(await readUserFile(resolve(cwd, file), MAX_FILE_BYTES)));
    } catch (err) {
      if (!(err instanceof UserFileError)) throw err;
      sha256s.push('');
    }
  }
  return changedFiles(saved, { files, sha256s, cwd });
}

/** Whether a path holds a saved plan (JSON with our kind) rather than a desired-state file. */
export function looksLikePlanFile(path: string): boolean {
  if (!/\.json$/i.test(path)) return false;
  try {
    const v = JSON.parse(readUserFileSync(path, MAX_DATA_FILE_BYTES).toString('utf8')) as { kind?: unknown };
    return v?.kind === PLAN_FILE_KIND;
  } catch {
    return false; // read as a desired-state file, whose reader says what is wrong with it
  }
}

/**
 * The saved plan at `path`, checked (digest, shape, paths: ./saved-plan-guard.ts) before anything
 * it names is read or created. `cwd` is the directory the command runs from: its repository root
 * (or, outside one, the plan's) is where the plan's paths are found, so a plan applies from any
 * directory of the checkout and after it was copied. No message quotes the file: a file that is
 * not a plan may be anything.
 */
export function readPlanFile(
  path: string,
  cwd = process.cwd(),
): SavedPlan & { desiredPaths: string[]; base: string } {
  let v: SavedPlan;
  try {
    v = JSON.parse(readUserFileSync(resolve(cwd, path), MAX_DATA_FILE_BYTES).toString('utf8')) as SavedPlan;
  } catch (err) {
    // (JSON.parse quotes the text it stopped at: not shown)
    const why = err instanceof UserFileError ? err.reason : 'not JSON';
    throw new UserError(`${path}: not a readable plan file (${why})`);
  }
  if (v?.kind !== PLAN_FILE_KIND || !Array.isArray(v.steps) || typeof v.desired?.sha256 !== 'string') {
    throw new UserError(`${path}: not a zoneplan plan file (made by \`zoneplan plan --out\`)`);
  }
  if (v.format_version !== 1) {
    throw new UserError(`${path}: plan format ${String(v.format_version)} is not supported by this zoneplan`);
  }
  const desired = checkPlanIntegrity(path, v as unknown as Record<string, unknown>);
  const planDir = dirname(resolve(cwd, path));
  const { base, within } = baseOf(path, desired.relative_to, planDir, resolve(cwd));
  checkPlanPaths(path, desired, base, within);
  return { ...v, base, desiredPaths: desired.paths.map((p) => resolve(base, p)) };
}

/**
 * Where a saved plan's paths are resolved, and the trees they must lie inside: the repository root
 * of the working directory (else of the plan's directory), the working directory, or for plans
 * that record neither, the plan's directory (the paths may lie there or in the working directory).
 */
function baseOf(
  plan: string,
  relativeTo: PlanBase | undefined,
  planDir: string,
  cwd: string,
): { base: string; within: { roots: string[]; named: string } } {
  if (relativeTo === 'working directory')
    return { base: cwd, within: { roots: [cwd], named: 'the working directory' } };
  if (relativeTo === 'repository') {
    const root = repositoryRoot(cwd) ?? repositoryRoot(planDir);
    if (!root)
      throw new UserError(
        `${plan}: the saved plan names its files relative to a repository root, and neither the working directory nor the plan is inside a repository (a directory holding .git); apply it from inside the checkout`,
      );
    return { base: root, within: { roots: [root], named: `the repository root (${root})` } };
  }
  return {
    base: planDir,
    within: { roots: [planDir, cwd], named: "the plan's directory and the working directory" },
  };
}

/** Why a saved plan no longer holds, one line per object; empty when it still does. */
export function staleReasons(saved: SavedPlan, fresh: Plan): string[] {
  // the file holds redacted ids (a create's key may contain an `${env:...}` value), each redacted
  // for its step (redactedJson): compare so
  const idOf = (s: Plan['steps'][number]) => redactForStep(s.id, s.source);
  const now = new Map(fresh.steps.map((s) => [idOf(s), s]));
  const was = new Set(saved.steps.map((s) => s.id));
  const out: string[] = [];
  for (const s of saved.steps) {
    const f = now.get(s.id);
    const where = stepName(s);
    if (!f) out.push(`${where}: changed since the plan was made (the step is no longer needed or differs)`);
    else if (f.fingerprint !== s.fingerprint)
      out.push(`${where}: the live object changed since the plan was made`);
    else if (f.action !== s.action) out.push(`${where}: now needs ${f.action} instead of ${s.action}`);
  }
  for (const f of fresh.steps) {
    if (!was.has(idOf(f))) out.push(`${stepName(f)}: a new change (${f.action}) not in the plan`);
  }
  return out.map(redact);
}
