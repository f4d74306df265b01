/**
 * The one place kinds are registered: adding a kind is its folder plus one line here.
 * Order matters only for output grouping; execution order comes from step dependencies.
 */
import type { KindDefinition } from '../core/kind.js';
import { zonesKind } from './zones/index.js';
import { dnsKind } from './dns/index.js';
import { pageShieldKind } from './page-shield/index.js';
import { logpushKind } from './logpush/index.js';
import { wafKind } from './waf/index.js';
import { loadBalancingKind } from './load-balancing/index.js';

const registry = new Map<string, KindDefinition>();

/** Registers a kind; a second registration of the same scope and key is a bug and throws. */
export function registerKind(kind: KindDefinition): void {
  const id = `${kind.scope}:${kind.key}`;
  if (registry.has(id)) throw new Error(`kind ${id} is registered twice`);
  registry.set(id, kind);
}

registerKind(zonesKind);
registerKind(dnsKind);
registerKind(pageShieldKind);
registerKind(logpushKind);
registerKind(wafKind);
registerKind(loadBalancingKind);

export function allKinds(): KindDefinition[] {
  return [...registry.values()];
}
