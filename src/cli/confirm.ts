/** The interactive confirmation of `apply` (Terraform's "Only 'yes' will be accepted"). */
import { createInterface } from 'node:readline/promises';

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} Only 'yes' will be accepted: `);
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}
