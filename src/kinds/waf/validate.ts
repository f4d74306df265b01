import type { ValidateContext } from '../../core/kind.js';

/** Offline semantic checks for `waf` (placeholder; src/config/ owns its content). */
export function validateWaf(_value: unknown, _ctx: ValidateContext): void {}
