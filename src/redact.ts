/**
 * The list of secret values of one CLI run (main() opens a scope per run, so an in-process run
 * never redacts with, or leaks into, another's list; outside a scope, e.g. the server alone or a
 * unit test, one process-wide list). Credentials read from the environment, `${env:NAME}`
 * values of the desired-state file, and secrets found inside Logpush destinations are registered
 * here once; every printer, plan writer, journal writer and error formatter passes its text through
 * `redact()` last, so a secret cannot leak through a path nobody thought of; the CLI's stdout and
 * stderr pass through it once more (src/cli/redacting-io.ts). Each value is looked for in every form
 * a renderer may give it (JSON-escaped, YAML-quoted, lower-cased, URL-encoded, line by line, wrapped:
 * src/redact-forms.ts), and a form is masked as its value is.
 */
// the names of secret parameters are shared with the Logpush rules (src/rules/secret-names.ts)
import { AsyncLocalStorage } from 'node:async_hooks';
import { belongsToEntry, placeIndex, type PlaceIndex } from './env-places.js';
import { findSecrets, maskFound, renderedForms } from './redact-forms.js';
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
 * Where each `${env:NAME}` value was written, per list of secrets. A plan masks such a value only
 * in the steps of the entries that held the reference (redactForStep); a value also registered
 * without a place (a credential, a secret found in a live Logpush destination) is masked
 * everywhere. `unplaced` holds the values registered without a place at least once.
 */
interface EnvPlaces {
  places: Map<string, EnvPlace[]>;
  /** per value, its places as redactForStep looks them up; dropped when a place is added or moved */
  indexes: Map<string, PlaceIndex>;
  unplaced: Set<string>;
  /** set when the paths cannot be trusted (a place of no known file in a merge): mask everywhere */
  unknown: boolean;
}

/**
 * One place of an env value: the dotted path in its file (`zones[0].dns.records[3].content`) and
 * the file. Several files are merged into one document whose entries are numbered across the
 * files (src/config/merge.ts): rebaseEnvPlaces moves each place to its merged path, once.
 */
export interface EnvPlace {
  path: string;
  file?: string;
  /** already a path of the merged document (a second merge in the same run leaves it alone) */
  merged?: boolean;
}

/** Per list of secrets: each rendered form of a value -> the values it is a form of. */
const formIndexes = new WeakMap<Map<string, string>, Map<string, string[]>>();
function formsOf(secrets: Map<string, string>): Map<string, string[]> {
  let forms = formIndexes.get(secrets);
  if (!forms) formIndexes.set(secrets, (forms = new Map()));
  return forms;
}

function addForms(secrets: Map<string, string>, value: string): void {
  const forms = formsOf(secrets);
  for (const form of renderedForms(value, MIN_SECRET_LENGTH)) {
    const owners = forms.get(form);
    if (!owners) forms.set(form, [value]);
    else if (!owners.includes(value)) owners.push(value);
  }
}

const envPlaces = new WeakMap<Map<string, string>, EnvPlaces>();
function placesOf(secrets: Map<string, string>): EnvPlaces {
  let p = envPlaces.get(secrets);
  if (!p)
    envPlaces.set(
      secrets,
      (p = { places: new Map(), indexes: new Map(), unplaced: new Set(), unknown: false }),
    );
  return p;
}

/**
 * Registers a secret value and the label that replaces it, e.g. `(from env LOGS_KEY)`; `place`
 * is where a `${env:NAME}` reference the value came from was written (a dotted path, or the path
 * and its file).
 */
export function registerSecret(
  value: string | undefined,
  label = '[REDACTED]',
  place?: string | EnvPlace,
): void {
  // Very short values would redact ordinary words; real tokens, keys and challenges are long.
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  const secrets = current();
  if (!secrets.has(value)) {
    secrets.set(value, label);
    addForms(secrets, value);
  }
  const p = placesOf(secrets);
  if (place === undefined) p.unplaced.add(value);
  else {
    let list = p.places.get(value);
    if (!list) p.places.set(value, (list = []));
    list.push(typeof place === 'string' ? { path: place } : { ...place });
    p.indexes.delete(value);
  }
}

/**
 * Registers a credential found inside a value of the file or of a live object (a Logpush
 * destination's key, an ownership challenge). When it is exactly an `${env:}` value, the places of
 * that value already say where it may show, and finding it again inside the field that holds it
 * (or in the live object that field is compared with) adds no new place: masking stays per field.
 * Any other found credential is masked everywhere.
 */
export function registerFoundSecret(value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  const secrets = current();
  if (secrets.has(value) && placesOf(secrets).places.has(value)) return;
  registerSecret(value);
}

/**
 * Moves the places of env values read from the merged files to their paths in the merged document:
 * `rebase.get(file)` maps a path of that file to the merged path. A place whose file is not among
 * them (nor merged already) cannot be moved: plans then mask env values everywhere (the safe side).
 */
export function rebaseEnvPlaces(rebase: Map<string, (path: string) => string>): void {
  const p = placesOf(current());
  for (const list of p.places.values()) {
    for (const place of list) {
      if (place.merged) continue;
      const move = place.file === undefined ? undefined : rebase.get(place.file);
      if (!move) {
        p.unknown = true;
        continue;
      }
      place.path = move(place.path);
      place.merged = true;
    }
  }
  p.indexes.clear();
}

/**
 * redact() for the text of one plan step whose desired entry is at the dotted path `entry`: an
 * env value written only inside other listed entries is shown (the same text there is not a
 * secret of this step: src/env-places.ts says which); everything else registered is replaced.
 * Without `entry`, exactly redact().
 */
export function redactForStep(text: string, entry: string | undefined): string {
  const secrets = current();
  if (entry === undefined || secrets.size === 0 || !text) return redact(text);
  const p = placesOf(secrets);
  if (p.unknown) return redact(text);
  return mask(text, secrets, (value) => {
    const places = p.places.get(value);
    if (places === undefined || p.unplaced.has(value)) return false;
    let index = p.indexes.get(value);
    if (!index) p.indexes.set(value, (index = placeIndex(places.map((pl) => pl.path))));
    return !belongsToEntry(index, entry);
  });
}

/** redact() minus the env values that carry a place: for plan text around the steps. */
export function redactAroundSteps(text: string): string {
  const secrets = current();
  if (secrets.size === 0 || !text) return text;
  const p = placesOf(secrets);
  if (p.unknown) return redact(text);
  return mask(text, secrets, (value) => p.places.has(value) && !p.unplaced.has(value));
}

/** Replaces every form of every registered secret. */
export function redact(text: string): string {
  const secrets = current();
  if (secrets.size === 0 || !text) return text;
  return mask(text, secrets, () => false);
}

/**
 * Masks every form of the registered values found in `text`, except where `shown(value)` says the
 * value may stay; a form of several values is masked when any of them is. Overlapping finds are
 * masked as one range, so the order values were registered in, or their lengths, never matter.
 */
function mask(text: string, secrets: Map<string, string>, shown: (value: string) => boolean): string {
  const found = findSecrets(text, formsOf(secrets));
  if (found.length === 0) return text;
  return maskFound(text, found, (owners) => {
    for (const value of owners) if (!shown(value)) return secrets.get(value);
    return undefined;
  });
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
  formIndexes.delete(current());
}
