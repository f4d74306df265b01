/** The interactive confirmation of `apply` (Terraform's "Only 'yes' will be accepted"). */
import { createInterface } from 'node:readline/promises';
import { InterruptedError } from './interrupt.js';
import type { CliIo } from './io.js';

export async function confirm(question: string, io: CliIo): Promise<boolean> {
  // readline writes the prompt to `output`; a plain writer is all it uses
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  try {
    const answer = await rl.question(`${question} Only 'yes' will be accepted: `);
    return answer.trim() === 'yes';
  } catch (err) {
    // Ctrl-C at the prompt: readline rejects with an AbortError; nothing has been applied yet
    if ((err as Error)?.name === 'AbortError')
      throw new InterruptedError('interrupted at the confirmation: nothing was applied');
    throw err;
  } finally {
    rl.close();
  }
}
