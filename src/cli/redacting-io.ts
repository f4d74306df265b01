/**
 * The last line of defence on the terminal: every string a run writes to stdout or stderr passes
 * through redactAroundSteps() (src/redact.ts), whoever wrote it (a command, commander's help and
 * errors, the progress bar, readline's prompt). The renderers have masked their text already, per
 * plan step; this pass masks credentials and every other value registered without a place, in
 * every form, once more. `${env:}` values with a place are left to the renderers: a plan shows such
 * a text in clear in the steps of other entries (docs/file-format.md).
 */
import { redactAroundSteps } from '../redact.js';
import type { CliIo, OutStream } from './io.js';

const originals = new WeakMap<object, OutStream>();

/** The stream with its `write` redacting strings; everything else (isTTY, columns, on) as it is. */
function redacting<S extends OutStream>(stream: S): S {
  const proxy = new Proxy(stream, {
    get(target, key) {
      if (key === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...args: unknown[]) => unknown)(
            typeof chunk === 'string' ? redactAroundSteps(chunk) : chunk,
            ...rest,
          );
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  originals.set(proxy, stream);
  return proxy;
}

/** The run's io with stdout and stderr redacting. */
export function redactingIo(io: CliIo): CliIo {
  return {
    stdout: redacting(io.stdout),
    stderr: redacting(io.stderr),
    get stdin() {
      return io.stdin;
    },
    env: io.env,
    cwd: io.cwd,
  };
}

/**
 * The stream under a redacting one, for the one line that must print a credential: the dev token
 * `zoneplan serve` creates is the user's way in, and it is registered as a secret like any other.
 */
export function unredacted(stream: OutStream): OutStream {
  return originals.get(stream) ?? stream;
}
