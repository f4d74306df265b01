/**
 * `zoneplan plan x.yaml | head -1` or `zoneplan apply ... | head`: the reader goes away, and the next
 * write to stdout fails with EPIPE, raised as an 'error' event that nothing handles, so Node prints
 * a stack trace although the work is done (or still being done: an apply must not stop half-way
 * because nobody reads its report). Nobody is left to read the rest, so the rest is dropped
 * quietly and the command keeps its own exit code. Any other stream error still surfaces as before.
 */
export function dropOutputOnClosedPipe(
  streams: NodeJS.WriteStream[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') return;
      throw err;
    });
  }
}
