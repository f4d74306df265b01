/**
 * The HTTP edges node:http answers by itself unless told otherwise: requests its parser refuses
 * (a request line and headers over the header limit, which is where a long query string ends up;
 * malformed requests; a request that takes too long to arrive) and HEAD. The API answers them as
 * it answers everything else: the JSON error envelope, and HEAD as GET without the body.
 */
import { maxHeaderSize, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './envelope.js';

/** What each parser error is answered with; anything else is a 400. */
const PARSER_ERRORS: Record<string, { status: number; reason: string; code: number; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 6003,
    message: 'The request line and headers (the URL with its query string counts) are larger than the limit',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    reason: 'Payload Too Large',
    code: 6008,
    message: 'The chunk extensions of the request body are larger than the limit',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 6003,
    message: 'The request did not arrive in time',
  },
};
const MALFORMED = { status: 400, reason: 'Bad Request', code: 6003, message: 'Malformed HTTP request' };

/** The method a request is routed with: HEAD runs the GET route (node:http leaves the body out). */
export function routingMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/** The whole raw response for a request the parser refused, with the envelope as its body. */
export function clientErrorResponse(code: string | undefined, headerLimit: number): string {
  const e = (code !== undefined && PARSER_ERRORS[code]) || MALFORMED;
  const message = code === 'HPE_HEADER_OVERFLOW' ? `${e.message} (${headerLimit} bytes).` : `${e.message}.`;
  const body = errorBody([{ code: e.code, message }]);
  return (
    `HTTP/1.1 ${e.status} ${e.reason}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    'connection: close\r\n\r\n' +
    body
  );
}

/**
 * Answers parser errors with the envelope, under the same guard as node's own handler: only when
 * nothing of a response has gone out on the connection yet (a keep-alive connection may be in the
 * middle of one), and never on a connection the client already reset.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      // the server is created without its own maxHeaderSize: node's (--max-http-header-size) applies
      socket.end(clientErrorResponse(err.code, maxHeaderSize));
      // a client that never reads must not hold the connection open
      setTimeout(() => socket.destroy(), 1000).unref();
    } else {
      socket.destroy();
    }
  });
}
