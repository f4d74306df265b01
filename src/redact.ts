/**
 * The list of secret values of one CLI run (main() opens a scope per run, so an in-process run
 * never redacts with, or leaks into, another's list; outside a scope, e.g. the server alone or a
 * unit test, one process-wide list). Credentials read from the environment, `${env:NAME}`
 * values of the desired-state file, and secrets found inside Logpush destinations are registered
 * here once; every printer, plan writer, journal writer and error formatter passes its text through
 * `redact()` last, so a secret cannot leak through a path nobody thought of.
 */
// the names of secret parameters are shared with the Logpush rules (src/rules/secret-names.ts)
import { AsyncLocalStorage } from 'node:async_hooks';
import { SECRET_PARAM } from './rules/secret-names.js';

export { SECRET_PARAM };

const processWide = new Map<string, string>();
const scope = new AsyncLocalStorage<Map<string, string>>();
const current = () => scope.getStore() ?? processWide;

/** Runs `fn` with its own, initially empty, list of secrets (everything it awaits included). */
export function withSecretScope<T>(fn: () => T): T {
  return scope.run(new Map(), fn);
}

/** Values shorter than this are not redacted: they would replace ordinary words and numbers. */
export const MIN_SECRET_LENGTH = 6;

/** Registers a secret value and the label that replaces it, e.g. `(from env LOGS_KEY)`. */
export function registerSecret(value: string | undefined, label = '[REDACTED]'): void {
  // Very short values would redact ordinary words; real tokens, keys and challenges are long.
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  const secrets = current();
  if (!secrets.has(value)) secrets.set(value, label);
}

/** Replaces every registered secret, longest first so a secret that contains another wins. */
export function redact(text: string): string {
  const secrets = current();
  if (secrets.size === 0 || !text) return text;
  let out = text;
  const ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);
  for (const [value, label] of ordered) {
    if (out.includes(value)) out = out.split(value).join(label);
  }
  return out;
}

/** Redacts secret-looking query values in a URL or URL-like string (e.g. a Logpush destination). */
export function redactUrl(url: string): string {
  return url.replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (m, sep: string, name: string) =>
    SECRET_PARAM.test(name) ? `${sep}${name}=[REDACTED]` : m,
  );
}

/** Test helper: forget every registered secret (of the current scope). */
export function clearSecrets(): void {
  current().clear();
}
