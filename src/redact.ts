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

/**
 * Where each `${env:NAME}` value was written (dotted file paths), per list of secrets. A plan
 * masks such a value only in the steps of the entries that held the reference (redactForStep);
 * a value also registered without a place (a credential, a Logpush parameter) is masked
 * everywhere. `unplaced` holds the values registered without a place at least once.
 */
interface EnvPlaces {
  places: Map<string, Set<string>>;
  unplaced: Set<string>;
  /** set when the paths cannot be trusted (several files renumbered): mask everywhere */
  unknown: boolean;
}
const envPlaces = new WeakMap<Map<string, string>, EnvPlaces>();
function placesOf(secrets: Map<string, string>): EnvPlaces {
  let p = envPlaces.get(secrets);
  if (!p) envPlaces.set(secrets, (p = { places: new Map(), unplaced: new Set(), unknown: false }));
  return p;
}

/**
 * Registers a secret value and the label that replaces it, e.g. `(from env LOGS_KEY)`; `place`
 * is the dotted file path of a `${env:NAME}` reference the value came from.
 */
export function registerSecret(value: string | undefined, label = '[REDACTED]', place?: string): void {
  // Very short values would redact ordinary words; real tokens, keys and challenges are long.
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  const secrets = current();
  if (!secrets.has(value)) secrets.set(value, label);
  const p = placesOf(secrets);
  if (place === undefined) p.unplaced.add(value);
  else {
    let set = p.places.get(value);
    if (!set) p.places.set(value, (set = new Set()));
    set.add(place);
  }
}

/** The places of env values no longer match the entries' paths: plans mask env values everywhere. */
export function forgetEnvPlaces(): void {
  placesOf(current()).unknown = true;
}

const SEGMENT = /\[[^\]]*\]|[^.[]+/g;
const INDEX = /^\[\d+\]$/;

/**
 * Whether an env value written at `place` may belong to the step of the entry at `entry`: unless
 * the place is inside another listed entry (another record, another zone's job: the paths part
 * at a list index), it does. So a place inside the entry counts, and so does a plain field of an
 * entry around it (a zone's name or defaults, which the entry may inherit): masked, the safe side.
 */
function belongsTo(place: string, entry: string): boolean {
  if (place.includes('"') || entry.includes('"')) return true; // quoted keys: do not guess
  const p = place.match(SEGMENT) ?? [];
  const e = entry.match(SEGMENT) ?? [];
  let i = 0;
  while (i < p.length && i < e.length && p[i] === e[i]) i++;
  return !p.slice(i).some((seg) => INDEX.test(seg));
}

/**
 * redact() for the text of one plan step whose desired entry is at the dotted path `entry`: an
 * env value written only inside other listed entries is shown (the same text there is not a
 * secret of this step); everything else registered is replaced. Without `entry`, exactly redact().
 */
export function redactForStep(text: string, entry: string | undefined): string {
  const secrets = current();
  if (entry === undefined || secrets.size === 0 || !text) return redact(text);
  const p = placesOf(secrets);
  if (p.unknown) return redact(text);
  let out = text;
  const ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);
  for (const [value, label] of ordered) {
    if (!out.includes(value)) continue;
    const places = p.places.get(value);
    const shown = places && !p.unplaced.has(value) && ![...places].some((pl) => belongsTo(pl, entry));
    if (!shown) out = out.split(value).join(label);
  }
  return out;
}

/** redact() minus the env values that carry a place: for plan text around the steps. */
export function redactAroundSteps(text: string): string {
  const secrets = current();
  if (secrets.size === 0 || !text) return text;
  const p = placesOf(secrets);
  if (p.unknown) return redact(text);
  let out = text;
  const ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);
  for (const [value, label] of ordered) {
    if (!out.includes(value)) continue;
    if (p.places.has(value) && !p.unplaced.has(value)) continue;
    out = out.split(value).join(label);
  }
  return out;
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
  envPlaces.delete(current());
}
