/**
 * The two parts of undici the client uses, its Agent (the keep-alive pool) and its `request`,
 * imported from their own modules. undici's index loads all of undici (fetch, WebSocket,
 * EventSource, mocks, caches, proxies): several times the start-up of these two, on every command
 * that makes a request. Imported statically (not through createRequire), so that the build's
 * bundle (scripts/bundle.js) carries them and V8's code cache of the bundle covers them too:
 * loaded from node_modules, their ~25 modules took a good part of a plan's start-up. Should a
 * future undici move them, the build fails, and test/client/undici-parts.test.ts with it.
 */
import AgentModule from 'undici/lib/dispatcher/agent.js';
import apiRequestModule from 'undici/lib/api/api-request.js';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

export const Agent = AgentModule as unknown as typeof UndiciAgent;
export type Agent = UndiciAgent;
const apiRequest = apiRequestModule as unknown as ApiRequest;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, { dispatcher, ... })`, as its index defines it (origin and path from the URL). */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  opts: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
  });
}
