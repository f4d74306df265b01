/**
 * apply's confirmation: 'yes' applies, anything else does not, and Ctrl-C at the prompt is an
 * interruption (exit 130, nothing applied), not an internal error.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirm } from '../../src/cli/confirm.js';
import { INTERRUPTED_EXIT, InterruptedError } from '../../src/cli/interrupt.js';
import type { CliIo } from '../../src/cli/io.js';

/** A terminal: readline handles keys (Ctrl-C among them) only when its output is a TTY. */
function terminalIo(): { io: CliIo; keys: PassThrough } {
  const keys = new PassThrough();
  const screen = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  screen.resume();
  return { io: { stdin: keys, stderr: screen } as unknown as CliIo, keys };
}

describe('confirm', () => {
  it("is true only for 'yes'", async () => {
    const yes = terminalIo();
    const asked = confirm('Apply?', yes.io);
    yes.keys.write('yes\r');
    expect(await asked).toBe(true);
    const no = terminalIo();
    const refused = confirm('Apply?', no.io);
    no.keys.write('y\r');
    expect(await refused).toBe(false);
  });

  it('Ctrl-C at the prompt is an interruption with exit 130', async () => {
    const { io, keys } = terminalIo();
    const asked = confirm('Apply?', io);
    keys.write('\x03');
    const err = await asked.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as InterruptedError).exitCode).toBe(INTERRUPTED_EXIT);
    expect((err as Error).message).toMatch(/nothing was applied/);
  });
});
