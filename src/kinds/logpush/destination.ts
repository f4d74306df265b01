/**
 * Destinations of Logpush jobs carry credentials (access keys, SAS tokens, authorization headers in
 * query parameters). Two defences, both needed:
 * - every credential is registered with the process-wide redactor (src/redact.ts) as soon as it is
 *   seen, in the file or in a live job, so any printer, plan writer or error formatter masks it
 *   (one that is exactly an `${env:}` value is masked as that value is: in a plan, only in the
 *   steps of the job that holds it).
 *   Only credentials: the redactor replaces a value wherever it appears, so registering a harmless
 *   value such as `tag=example.com` would mask the zone name in every line of output;
 * - the plan's `before`/`after` never hold the raw destination at all: they show the masked form
 *   (which also hides unknown parameters) and a short digest of the hidden parts, so a changed
 *   credential still shows as a change.
 */
import { sha256 } from '../../core/canonical.js';
import { destinationSecrets, maskDestination, maskedDestinationParts } from '../../rules/logpush/index.js';
import { registerFoundSecret } from '../../redact.js';

export function registerDestinationSecrets(conf: string): void {
  for (const secret of destinationSecrets(conf)) {
    // a credential that is exactly an `${env:}` value keeps that value's per-field masking
    registerFoundSecret(secret);
    // The same value may come back percent-encoded (or decoded) from the API.
    registerFoundSecret(encodeURIComponent(secret));
    try {
      registerFoundSecret(decodeURIComponent(secret));
    } catch {
      // not valid percent-encoding: the raw form is registered already
    }
  }
}

/** What a plan shows for a destination: the masked URI, and a digest only when it hides parts. */
export interface DisplayedDestination {
  destination_conf: string;
  /** `sha256:<12 hex>` of the parts the masked URI hides; absent when there are none */
  destination_credentials?: string;
}

export function displayDestination(conf: string): DisplayedDestination {
  const hidden = maskedDestinationParts(conf);
  const shown: DisplayedDestination = { destination_conf: maskDestination(conf) };
  if (hidden.length > 0) {
    // A digest of high-entropy credentials says "changed" without saying what they are; the
    // fingerprint of a saved plan is such a digest anyway.
    const digest = sha256(hidden.join('\n')).slice(0, 12);
    shown.destination_credentials = `sha256:${digest}`;
  }
  return shown;
}
