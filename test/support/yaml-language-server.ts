/**
 * yaml-language-server (the server of Red Hat's YAML editor extension) driven headlessly over
 * stdio with the Language Server Protocol: open a document, read the diagnostics the editor would
 * show, ask for completions at a position. Used to check that the shipped schema helps editors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export interface LspDiagnostic {
  message: string;
  severity?: number;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

export interface YamlLanguageServer {
  /** opens `text` as the document at `path` and returns its diagnostics */
  diagnostics(path: string, text: string): Promise<LspDiagnostic[]>;
  /** completion labels at (line, character) of a document opened before */
  completions(path: string, line: number, character: number): Promise<string[]>;
  /** hover text at (line, character) of a document opened before */
  hover(path: string, line: number, character: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the server with `schemas` as the workspace's `yaml.schemas` setting (schema file path ->
 * globs), the portable way docs/editors.md recommends.
 */
export async function startYamlLanguageServer(
  root: string,
  schemas: Record<string, string[]> = {},
): Promise<YamlLanguageServer> {
  const require = createRequire(import.meta.url);
  const bin = require.resolve('yaml-language-server/bin/yaml-language-server');
  const child: ChildProcess = spawn(process.execPath, [bin, '--stdio'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  const published = new Map<string, LspDiagnostic[]>();
  const waiters: { uri: string; resolve: (d: LspDiagnostic[]) => void }[] = [];
  const settings = {
    yaml: {
      validate: true,
      hover: true,
      completion: true,
      schemas: Object.fromEntries(Object.entries(schemas).map(([k, v]) => [pathToFileURL(k).href, v])),
      schemaStore: { enable: false },
    },
  };
  const send = (msg: object) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...msg });
    child.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send({ id, method, params });
    });
  let buffer = Buffer.alloc(0);
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())![1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const msg = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
      buffer = buffer.subarray(headerEnd + 4 + length);
      if (msg.id !== undefined && msg.method === undefined) {
        pending.get(msg.id)?.(msg.result);
        pending.delete(msg.id);
      } else if (msg.method === 'workspace/configuration') {
        send({ id: msg.id, result: msg.params.items.map(() => settings.yaml) });
      } else if (msg.id !== undefined) {
        send({ id: msg.id, result: null }); // any other request from the server
      } else if (msg.method === 'textDocument/publishDiagnostics') {
        published.set(msg.params.uri, msg.params.diagnostics);
        for (const w of waiters.filter((x) => x.uri === msg.params.uri)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(msg.params.diagnostics);
        }
      }
    }
  });
  await request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
      textDocument: {
        publishDiagnostics: {},
        completion: { completionItem: { snippetSupport: false } },
        hover: {},
      },
    },
    initializationOptions: {},
  });
  send({ method: 'initialized', params: {} });
  send({ method: 'workspace/didChangeConfiguration', params: { settings } });
  let version = 0;
  return {
    async diagnostics(path, text) {
      const uri = pathToFileURL(path).href;
      const result = new Promise<LspDiagnostic[]>((resolve) => waiters.push({ uri, resolve }));
      send({
        method: 'textDocument/didOpen',
        params: { textDocument: { uri, languageId: 'yaml', version: ++version, text } },
      });
      return result;
    },
    async completions(path, line, character) {
      const r = (await request('textDocument/completion', {
        textDocument: { uri: pathToFileURL(path).href },
        position: { line, character },
      })) as { items: { label: string }[] } | { label: string }[] | null;
      const items = Array.isArray(r) ? r : (r?.items ?? []);
      return items.map((i) => i.label);
    },
    async hover(path, line, character) {
      const r = (await request('textDocument/hover', {
        textDocument: { uri: pathToFileURL(path).href },
        position: { line, character },
      })) as { contents: { value: string } | string } | null;
      if (!r) return '';
      return typeof r.contents === 'string' ? r.contents : r.contents.value;
    },
    async close() {
      await request('shutdown', null);
      send({ method: 'exit' });
      await new Promise((r) => child.once('exit', r));
    },
  };
}
