/**
 * The two parts of undici the client uses, its Agent (the keep-alive pool) and its `request`,
 * loaded from their own modules, once, when the first client is made. undici's index loads all of
 * undici (fetch, WebSocket, EventSource, mocks, caches, proxies): several times the start-up of
 * these two, on every command that makes a request.
 *
 * The build bundles the two into one file beside the CLI's bundle (dist/bundle/undici-parts.cjs,
 * scripts/bundle.js) and keeps V8's code cache of it (scripts/code-cache.js): loaded from
 * node_modules, their ~25 modules took a good part of a plan's start-up. A file of its own, so
 * that commands that make no request (validate) do not load its code cache. Without the build's
 * file (tsc's dist/, tests on src/) they come from node_modules; should a future undici move them,
 * the index is loaded instead (same classes, same code).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { loadCommonJs } from '../commonjs-loader.js';

const require = createRequire(import.meta.url);

/** The file the build writes beside the bundle: `{ Agent, request }` from undici's own modules. */
export const BUNDLED_UNDICI = 'undici-parts.cjs';

type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

interface Parts {
  Agent: typeof UndiciAgent;
  apiRequest: ApiRequest;
}

const isParts = (p: Partial<Parts> | undefined): p is Parts =>
  typeof p?.Agent === 'function' && typeof p.apiRequest === 'function';

function load(): Parts {
  try {
    const bundled = loadCommonJs(fileURLToPath(new URL(BUNDLED_UNDICI, import.meta.url))) as
      { Agent?: typeof UndiciAgent; request?: ApiRequest } | undefined;
    const parts = { Agent: bundled?.Agent, apiRequest: bundled?.request };
    if (isParts(parts)) return parts;
  } catch {
    // no build beside this code: node_modules below
  }
  try {
    const parts = {
      Agent: require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent,
      apiRequest: require('undici/lib/api/api-request.js') as ApiRequest,
    };
    if (isParts(parts)) return parts;
  } catch {
    // a layout this file does not know: the index below
  }
  const undici = require('undici') as typeof import('undici');
  return {
    Agent: undici.Agent,
    apiRequest(this: Dispatcher, opts: Dispatcher.RequestOptions) {
      return undici.request(new URL(opts.path, opts.origin as string), { ...opts, dispatcher: this });
    },
  };
}

let loaded: Parts | undefined;

/** undici's Agent and request, loaded on first use. */
export function undiciParts(): Parts {
  return (loaded ??= load());
}

export type Agent = UndiciAgent;

/** Node's default for `--max-http-header-size`. */
const NODE_MAX_HEADER_SIZE = 16 * 1024;

/**
 * The largest response header section accepted, as undici takes it from node:http: Node's
 * `--max-http-header-size` when the process was given one (on its command line or in
 * NODE_OPTIONS), else Node's default, given here so that undici does not load node:http just to
 * ask (scripts/bundle.js).
 */
function maxHeaderSize(): number {
  const given = (arg: string) => arg.startsWith('--max-http-header-size');
  const set = process.execArgv.some(given) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).some(given);
  return set ? (require('node:http') as typeof import('node:http')).maxHeaderSize : NODE_MAX_HEADER_SIZE;
}

/** A new undici Agent (the first one loads undici). */
export function createAgent(options: UndiciAgent.Options): Agent {
  return new (undiciParts().Agent)({ maxHeaderSize: maxHeaderSize(), ...options });
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, { dispatcher, ... })`, as its index defines it (origin and path from the URL). */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  opts: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return undiciParts().apiRequest.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
  });
}
