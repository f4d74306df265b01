/**
 * Where a YAML text first nests deeper than a limit, found by a cheap scan of the text: the YAML
 * parser itself recurses per level and, some thousands of levels down, runs out of stack before
 * our own depth check (the desired-state loader's, on the tree; the fixtures loader's) can say anything. Then this says where instead
 * of "Maximum call stack size exceeded". Approximate by design (block indentation levels plus flow
 * brackets outside quotes); it is only asked about a text the parser could not read.
 */

/** The offset of the first character more than `limit` levels deep, or undefined. */
export function firstTooDeep(text: string, limit: number): number | undefined {
  const indents: number[] = []; // indentation of the open block levels
  let flow = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const content = line.replace(/^\s+/, '');
    if (flow === 0) {
      if (content === '' || content.startsWith('#')) continue;
      const indent = line.length - content.length;
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      // `- - - a:` opens one level per dash
      for (const m of content.matchAll(/(?<=^|- )- /g)) indents.push(indent + m.index! + 2);
      if (indents.length > limit) return start + indent;
    }
    let quote = '';
    for (let i = line.length - content.length; i < line.length; i++) {
      const c = line[i]!;
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === 0 || line[i - 1] === ' ')) break;
      else if (c === '[' || c === '{') {
        flow++;
        if (indents.length + flow > limit) return start + i;
      } else if (c === ']' || c === '}') flow = Math.max(0, flow - 1);
    }
  }
  return undefined;
}
