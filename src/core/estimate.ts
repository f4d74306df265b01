/**
 * The request floor of a run, from the files alone: what reading the live state costs when every
 * list fits one page and the zone list holds just the file's zones. The kinds say their share
 * (`readRequests`, `ownerKind.readManyRequests`); a run that needs more than the API's budget window
 * says so at its start from this figure, and the fleet bench prints it beside the requests made.
 */
import type { DesiredState } from '../config/model.js';
import { desiredValueOf, kindApplies, type RuntimeKind } from './plan.js';
import { ownersOf } from './read.js';

/** The read requests of plan or drift over `desired` (apply adds its writes, `Plan.calls`). */
export function readFloor(desired: DesiredState, kinds: RuntimeKind[]): number {
  const owners = ownersOf(desired);
  let requests = 0;
  for (const k of kinds) {
    const mine = owners.filter((o) => kindApplies(k, o));
    if (mine.length === 0) continue;
    const many = k.runtime.ownerKind?.readManyRequests?.(mine.length) ?? 0;
    if (many > 0) {
      requests += many;
      continue;
    }
    for (const o of mine) requests += k.runtime.readRequests?.(desiredValueOf(k, o.entry)) ?? 1;
  }
  return requests;
}
