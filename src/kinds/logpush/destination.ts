/**
 * Destinations of Logpush jobs carry credentials (access keys, SAS tokens, authorization headers in
 * query parameters). Two defences, both needed:
 * - every secret part is registered with the process-wide redactor (src/redact.ts) as soon as it is
 *   seen, in the file or in a live job, so any printer, plan writer or error formatter masks it;
 * - the plan's `before`/`after` never hold the raw destination at all: they show the masked form and
 *   a short digest of the secret parts, so a changed credential still shows as a change.
 */
import { createHash } from 'node:crypto';
import { destinationSecrets, maskDestination } from '../../rules/logpush/index.js';
import { registerSecret } from '../../redact.js';

export function registerDestinationSecrets(conf: string): void {
  for (const secret of destinationSecrets(conf)) {
    registerSecret(secret);
    // The same value may come back percent-encoded (or decoded) from the API.
    registerSecret(encodeURIComponent(secret));
    try {
      registerSecret(decodeURIComponent(secret));
    } catch {
      // not valid percent-encoding: the raw form is registered already
    }
  }
}

/** What a plan shows for a destination: the masked URI, and a digest only when it holds secrets. */
export interface DisplayedDestination {
  destination_conf: string;
  /** `sha256:<12 hex>` of the secret parts; absent when there are none */
  destination_credentials?: string;
}

export function displayDestination(conf: string): DisplayedDestination {
  const secrets = destinationSecrets(conf);
  const shown: DisplayedDestination = { destination_conf: maskDestination(conf) };
  if (secrets.length > 0) {
    // A digest of high-entropy credentials says "changed" without saying what they are; the
    // fingerprint of a saved plan is such a digest anyway.
    const digest = createHash('sha256').update(secrets.join('\n')).digest('hex').slice(0, 12);
    shown.destination_credentials = `sha256:${digest}`;
  }
  return shown;
}
