import type { ValidateContext } from '../../core/kind.js';

/** Offline semantic checks for `page_shield` (placeholder; src/config/ owns its content). */
export function validatePageShield(_value: unknown, _ctx: ValidateContext): void {}
