/**
 * The two parts of undici the client uses, its Agent (the keep-alive pool) and its `request`,
 * loaded from their own modules. undici's index loads all of undici (fetch, WebSocket, EventSource,
 * mocks, caches, proxies): several times the start-up of these two, on every command that makes a
 * request. Should a future undici move them, the index is loaded instead (same classes, same code).
 */
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

function load(): { Agent: typeof UndiciAgent; apiRequest: ApiRequest } {
  try {
    const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
    const apiRequest = require('undici/lib/api/api-request.js') as ApiRequest;
    if (typeof Agent === 'function' && typeof apiRequest === 'function') return { Agent, apiRequest };
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

const parts = load();

export const Agent = parts.Agent;
export type Agent = UndiciAgent;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, { dispatcher, ... })`, as its index defines it (origin and path from the URL). */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  opts: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return parts.apiRequest.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
  });
}
