/**
 * What a saved plan must be before anything it names is read, or anything is created beside it.
 * A plan file is input like any other (it may have been edited, or come from somewhere else): its
 * digest, its shape and the paths it names are checked first, from the plan's text alone
 * (docs/plan-and-apply.md, "What a saved plan may name"):
 *  - `digest` is the sha256 of the plan's canonical JSON without the digest: a plan edited by hand
 *    or cut short is refused (the digest is no signature: whoever can write the plan can compute
 *    it, which is why the paths are checked as well);
 *  - every desired path is relative, and lies (symbolic links resolved) inside the tree it is
 *    relative to: the repository root or the working directory (older plans: the plan's directory
 *    or the working directory); the files are regular files, the paths regular files or
 *    directories;
 *  - `relative_to`, `variables` and `credential` are what plan writes.
 * Messages name the plan and the field, never the content of what a path points at.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { UserError } from '../errors.js';
import { canonicalJson, sha256 } from './canonical.js';

const SHA256 = /^[0-9a-f]{64}$/;
export const DIGEST_PREFIX = 'sha256:';

/** The digest of a plan as written (its parsed value, without `digest`). */
export function planDigest(plan: Record<string, unknown>): string {
  const { digest: _digest, ...rest } = plan;
  return DIGEST_PREFIX + sha256(canonicalJson(rest));
}

/** The saved plan's `desired` as the checks leave it: every field present and well-formed. */
export interface CheckedDesired {
  file: string;
  sha256: string;
  paths: string[];
  files: { file: string; sha256: string }[];
  relative_to?: 'repository' | 'working directory';
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Refuses a plan whose digest does not match, or whose `desired` is not what plan writes. */
export function checkPlanIntegrity(plan: string, v: Record<string, unknown>): CheckedDesired {
  const refuse = (why: string) =>
    new UserError(`${plan}: ${why}; a saved plan is used as \`zoneplan plan --out\` wrote it: plan again`);
  if (typeof v.digest !== 'string') throw refuse('the plan has no digest');
  let digest: string;
  try {
    digest = planDigest(v);
  } catch {
    throw refuse('the plan is nested too deeply to be one zoneplan wrote');
  }
  if (digest !== v.digest)
    throw refuse('the plan does not match its digest (it was changed after it was saved)');
  const d = v.desired as Record<string, unknown> | undefined;
  const isPath = (p: unknown): p is string => typeof p === 'string' && p !== '' && !p.includes('\0');
  const isEntry = (f: unknown): f is { file: string; sha256: string } =>
    typeof f === 'object' &&
    f !== null &&
    isPath((f as { file?: unknown }).file) &&
    SHA256.test(String((f as { sha256?: unknown }).sha256));
  if (
    !d ||
    !isPath(d.file) ||
    !SHA256.test(String(d.sha256)) ||
    !Array.isArray(d.paths) ||
    d.paths.length === 0 ||
    !d.paths.every(isPath) ||
    !Array.isArray(d.files) ||
    d.files.length === 0 ||
    !d.files.every(isEntry) ||
    (d.relative_to !== undefined && d.relative_to !== 'repository' && d.relative_to !== 'working directory')
  )
    throw refuse("the plan's `desired` is not the list of paths and files that plan writes");
  const vars = v.variables;
  if (
    vars !== undefined &&
    (vars === null ||
      typeof vars !== 'object' ||
      Array.isArray(vars) ||
      !Object.keys(vars).every((n) => VARIABLE_NAME.test(n)))
  )
    throw refuse("the plan's `variables` is not the map of variable names to values that plan writes");
  if (v.credential !== undefined && v.credential !== 'token' && v.credential !== 'key')
    throw refuse("the plan's `credential` is not `token` or `key`");
  return d as unknown as CheckedDesired;
}

/**
 * Refuses a path of the plan that is absolute, lies outside the trees it may name (`within`), or
 * is not what it should be. Paths are resolved from `base`. Only metadata is looked at (realpath,
 * stat): nothing is opened.
 */
export function checkPlanPaths(
  plan: string,
  desired: CheckedDesired,
  base: string,
  within: { roots: string[]; named: string },
): void {
  const roots = [...new Set(within.roots.flatMap((r) => [resolve(r), realOrSame(r)]))];
  const check = (field: string, p: string, mayBeDirectory: boolean) => {
    const refuse = (why: string) =>
      new UserError(`${plan}: desired ${field} ${JSON.stringify(p)} ${why}; plan again`);
    if (isAbsolute(p))
      throw refuse('is an absolute path (a saved plan names its files relative to the checkout)');
    const full = resolve(base, p);
    let real: string;
    try {
      real = realpathSync(full);
    } catch {
      // gone: nothing to read there; the files' check reports it as no longer read
      if (roots.some((root) => inside(root, full))) return;
      throw refuse(`is outside ${within.named} (${resolvesTo(full, full)})`);
    }
    if (!roots.some((root) => inside(root, real)))
      throw refuse(
        `is outside ${within.named} (${resolvesTo(full, real)}); ` + 'a saved plan reads only files below it',
      );
    const info = statSync(real);
    if (info.isFile() || (mayBeDirectory && info.isDirectory())) return;
    throw refuse(`is not a regular file${mayBeDirectory ? ' or a directory' : ''}`);
  };
  desired.paths.forEach((p, i) => check(`paths[${i}]`, p, true));
  desired.files.forEach((f, i) => check(`files[${i}]`, f.file, false));
  check('file', desired.file, false);
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether `path` is `root` or below it; a tree rooted at `/` would hold everything, so holds nothing. */
export function inside(root: string, path: string): boolean {
  if (resolve(root) === resolve('/')) return false;
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}

function resolvesTo(full: string, real: string): string {
  return full === real ? 'it resolves outside' : 'it leads outside through a symbolic link';
}
