/** What the waf planner's parts share: the steps' keys, and where a plan error is in the file. */
import { UserError } from '../../errors.js';
import { placed } from '../shared/api.js';

export const STEP = {
  check: 'migration:check',
  fetch: 'migration:fetch',
  merge: 'migration:merge',
  validation: 'migration:validation',
  pending: 'migration:pending',
  entrypoint: 'entrypoint-overrides',
} as const;

/** Where the plan is: the zone's name, and `file:line:col` of a path of the file when known. */
export interface PlanPlace {
  zone?: string;
  locate?: (path: string) => string | undefined;
  /** a note that does not stop the plan (the provider's changes to a ruleset), shown on stderr */
  warn?: (message: string) => void;
}

/** A plan error that names the zone and the place in the file, like validation errors do. */
export function placedError(place: PlanPlace, path: string, message: string): UserError {
  const at = place.locate?.(path);
  return new UserError(`${place.zone ? `zone ${place.zone}: ` : ''}${placed(at, path, message)}`);
}

/** One plan error for several placed problems, each on its own line at its own `file:line:col`. */
export function placedErrors(place: PlanPlace, problems: { path: string; message: string }[]): UserError {
  const lines = problems.map((p) => placed(place.locate?.(p.path), p.path, p.message));
  const head = place.zone ? `zone ${place.zone}: ` : '';
  return new UserError(
    lines.length === 1
      ? head + lines[0]
      : `${head}the managed rulesets cannot be planned:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
  );
}
