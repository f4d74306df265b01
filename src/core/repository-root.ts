/**
 * The directory a saved plan names its files relative to (docs/plan-and-apply.md, "Saved plans"):
 * the repository root, the nearest ancestor holding `.git` (a directory, or the file of a worktree
 * or a submodule), so that the plan applies from any directory of the checkout, from another
 * checkout of the same commit, or after it was copied (a CI artifact downloaded elsewhere); the
 * working directory when there is no repository.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export type PlanBase = 'repository' | 'working directory';

/** The nearest directory at or above `dir` that holds `.git`, or undefined. */
export function repositoryRoot(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** Where a plan made in `cwd` names its files from, and which sort of directory that is. */
export function planBaseOf(cwd: string): { base: string; relativeTo: PlanBase } {
  const root = repositoryRoot(cwd);
  return root
    ? { base: root, relativeTo: 'repository' }
    : { base: resolve(cwd), relativeTo: 'working directory' };
}
