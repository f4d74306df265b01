/**
 * E-mail addresses as notifications use them, and the legacy `notification_email` of a load balancer
 * pool, which may hold several addresses separated by commas.
 */

/** Longest address (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

// local@domain: a dot-atom local part and a domain of letter/digit/hyphen labels with a TLD.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** True for a syntactically valid address such as ops@example.com. */
export function isValidEmail(address: string): boolean {
  if (address.length > MAX_EMAIL_LENGTH) return false;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  return (
    local.length <= 64 &&
    LOCAL.test(local) &&
    labels.length >= 2 &&
    labels.every((l) => LABEL.test(l)) &&
    /^[A-Za-z][A-Za-z0-9-]*$/.test(labels[labels.length - 1])
  );
}

/** A pool's `notification_email` as a list: split on commas, trimmed, empties dropped. "" -> []. */
export function splitNotificationEmail(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Problems of a `notification_email` value (a comma-separated list of addresses; "" means none). */
export function checkNotificationEmail(
  value: unknown,
  path = 'notification_email',
): { path: string; message: string }[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'string')
    return [{ path, message: 'must be a string of comma-separated e-mail addresses' }];
  return splitNotificationEmail(value)
    .filter((a) => !isValidEmail(a))
    .map((a) => ({ path, message: `"${a}" is not an e-mail address` }));
}
