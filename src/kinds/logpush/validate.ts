import type { ValidateContext } from '../../core/kind.js';

/** Offline semantic checks for `logpush` (placeholder; src/config/ owns its content). */
export function validateLogpush(_value: unknown, _ctx: ValidateContext): void {}
