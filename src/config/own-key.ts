/**
 * Sets `key` as an own data property. Plain assignment would treat a file's `__proto__` key as the
 * object's prototype: the key would vanish from the data (no "unknown key" error for it) and its
 * value would be inherited by the copy. Defining it keeps it an ordinary key the schema can refuse.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
