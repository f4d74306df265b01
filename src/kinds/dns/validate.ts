import type { ValidateContext } from '../../core/kind.js';

/** Offline semantic checks for `dns` (placeholder; src/config/ owns its content). */
export function validateDns(_value: unknown, _ctx: ValidateContext): void {}
