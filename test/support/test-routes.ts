/**
 * Calling the local API's test-only routes (/__zoneplan) from a test: the server must have been
 * started with `testRoutes: true` (startTestServer does it), and every call but `GET /health`
 * carries the run's test-routes token.
 */
interface WithTestRoutes {
  url: string;
  testRoutesToken?: string;
}

/** `http://127.0.0.1:PORT/__zoneplan<path>` for a server whose `url` ends in /client/v4. */
export function testRouteUrl(server: { url: string }, path: string): string {
  return server.url.replace(/\/(client|api)\/v4\/?$/, '') + '/__zoneplan' + path;
}

/** The admin credential of the server's test-only routes, as headers. */
export function testRouteHeaders(server: WithTestRoutes): Record<string, string> {
  if (!server.testRoutesToken) throw new Error('the server was started without testRoutes: true');
  return { authorization: `Bearer ${server.testRoutesToken}` };
}

/** fetch() of a test-only route with the admin credential (and a JSON body, when given). */
export function fetchTestRoute(
  server: WithTestRoutes,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  const headers = testRouteHeaders(server);
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(testRouteUrl(server, path), {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}
