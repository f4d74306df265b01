/**
 * How the files the build writes beside the CLI's bundle (the schema validator, undici's parts) are
 * loaded: require() by default, or the loader the running program gives. bin/zoneplan.js gives one
 * that hands V8 the code cache the build made for each file (bin/bundle-loader.js); the result is
 * the same module either way.
 */
import { createRequire } from 'node:module';

/** Loads a CommonJS file by its absolute path. */
export type CommonJsLoader = (file: string) => unknown;

let loader: CommonJsLoader = createRequire(import.meta.url);

export function useCommonJsLoader(given: CommonJsLoader): void {
  loader = given;
}

export function loadCommonJs(file: string): unknown {
  return loader(file);
}
