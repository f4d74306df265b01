/**
 * A desired-state file's bytes as text: UTF-8 only, and where the first byte that is not valid
 * UTF-8 is when there is one (./yaml-source.ts reports it at its line and column).
 */

/** bytes decoded at a time by decodeUtf8: well under the size at which Node makes a string external */
const DECODE_PIECE = 256 * 1024;

/**
 * The text of UTF-8 bytes (a leading BOM dropped), as TextDecoder reads them; throws at invalid
 * UTF-8. Node hands back the text of more than about 1 MB as an external string, which V8 reads
 * more slowly until the reader's code is optimised: a cold read of a 10,000-record file (1.2 MB)
 * took some 8 ms more of the main thread (25 against 17 ms, medians of 11 runs; `zoneplan validate`
 * of it 259 against 240 ms of CPU, medians of 41 interleaved runs). Decoded a piece
 * at a time (a character split between pieces is carried over), the pieces are ordinary strings,
 * and join makes one flat string of them.
 */
export function decodeUtf8(bytes: Buffer): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  if (bytes.length <= DECODE_PIECE) return decoder.decode(bytes);
  const pieces: string[] = [];
  for (let at = 0; at < bytes.length; at += DECODE_PIECE)
    pieces.push(decoder.decode(bytes.subarray(at, at + DECODE_PIECE), { stream: true }));
  pieces.push(decoder.decode());
  return pieces.join('');
}

/** The offset of the first byte that is not valid UTF-8 (the bytes are known to hold one). */
export function firstInvalidUtf8(bytes: Buffer): number {
  // the longest prefix that decodes (an incomplete last character is not an error when streaming)
  const decodes = (n: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (decodes(mid)) lo = mid;
    else hi = mid - 1;
  }
  // the prefix may end with the start of a character that the next byte does not complete: the
  // bad sequence then starts at that character's lead byte
  let at = lo;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, lo));
  } catch {
    while (at > 0 && (bytes[at - 1] & 0xc0) === 0x80) at--;
    at = Math.max(0, at - 1);
  }
  return Math.min(at, bytes.length - 1);
}

/** Line and column (in characters) of a byte offset, counting the valid text before it. */
export function byteLocation(bytes: Buffer, offset: number): { line: number; col: number } {
  // (lastIndexOf with -1 would search from the end of the buffer)
  const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < lineStart; i = bytes.indexOf(0x0a, i + 1)) line++;
  const before = new TextDecoder('utf-8').decode(bytes.subarray(lineStart, offset));
  return { line, col: [...before].length + 1 };
}
