import type { ValidateContext } from '../../core/kind.js';

/** Offline semantic checks for `load_balancing` (placeholder; src/config/ owns its content). */
export function validateLoadBalancing(_value: unknown, _ctx: ValidateContext): void {}
