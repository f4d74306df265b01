/**
 * The forms a secret takes in what zoneplan prints and writes, and where they are in a text.
 *
 * A value is rarely printed as it was read: a plan shows a field as a JSON string (`"a\"b"`), a
 * saved plan or a journal line escapes that again (`\"a\\\"b\"`), a Markdown cell escapes `|`, an
 * export writes YAML single-quoted (`'it''s'`), DNS names are lower-cased, a URL carries the value
 * percent-encoded, a multi-line value is printed line by line and a long line may be wrapped. So
 * every secret is registered with all of these forms (renderedForms) and the redactor looks for
 * each of them (findSecrets), also across line breaks (a wrapped line joined again).
 */

/** How zoneplan's own logic may change a value before it is rendered. */
const CHANGES: ((v: string) => string)[] = [
  (v) => v,
  (v) => v.toLowerCase(), // DNS names, WAF ids and e-mail addresses are compared and shown lower-cased
  (v) => v.toUpperCase(),
  encodeURIComponent, // a value inside a URL or a query string
  encodeURI,
  (v) => encodeURIComponent(v).replace(/%20/g, '+'), // form encoding
];

/** How the renderers escape a string; applied up to twice (a JSON string inside a JSON line). */
const ESCAPES: ((v: string) => string)[] = [
  (v) => JSON.stringify(v).slice(1, -1), // JSON and the text plan's values; YAML double-quoted alike
  (v) => v.replace(/'/g, "''"), // YAML single-quoted (the export)
  (v) => v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' '), // a Markdown table cell
];
const ESCAPE_DEPTH = 2;

/**
 * Every form of `value` at least `minLength` long (a shorter form would mask ordinary words), the
 * value itself first. A value of several lines adds each line's forms: a renderer that keeps the
 * line breaks may indent the lines or print them apart.
 */
export function renderedForms(value: string, minLength: number): string[] {
  const forms = new Set<string>([value]);
  const add = (s: string) => {
    if (s.length >= minLength) forms.add(s);
  };
  for (const change of CHANGES) {
    let base: string;
    try {
      base = change(value);
    } catch {
      continue; // encodeURIComponent refuses a lone surrogate: no URL holds that form either
    }
    add(base);
    let level = [base];
    for (let depth = 0; depth < ESCAPE_DEPTH; depth++) {
      const next: string[] = [];
      for (const s of level) {
        for (const escape of ESCAPES) {
          const e = escape(s);
          if (!forms.has(e) && e.length >= minLength) next.push(e);
          add(e);
        }
      }
      level = next;
    }
  }
  const lines = value.split(/\r?\n/);
  if (lines.length > 1) {
    for (const line of lines)
      if (line.length >= minLength) for (const f of renderedForms(line, minLength)) forms.add(f);
  }
  return [...forms];
}

/** One place a form of a secret was found: [start, end) of the text, and whose form it is. */
export interface FoundSecret {
  start: number;
  end: number;
  owners: readonly string[];
}

/**
 * Every occurrence of every form in `forms` (form -> the secret values it is a form of), in the
 * text as it is and in the text with its line breaks and the indentation around them removed (a
 * renderer that wraps a long line at a fixed width may cut a secret in two). Overlapping
 * occurrences are all reported: the caller merges them.
 */
export function findSecrets(text: string, forms: ReadonlyMap<string, readonly string[]>): FoundSecret[] {
  const found: FoundSecret[] = [];
  for (const [form, owners] of forms) {
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1))
      found.push({ start: at, end: at + form.length, owners });
  }
  // a line break followed by more text: a single line written with its '\n' has nothing to join
  const lineBreak = text.indexOf('\n');
  if (lineBreak !== -1 && lineBreak < text.trimEnd().length) {
    const joinedText = text.replace(LINE_BREAK, '');
    // the way back to the text's offsets costs more than the search: made only for a find
    let joined: ReturnType<typeof joinLines> | undefined;
    for (const [form, owners] of forms) {
      for (let at = joinedText.indexOf(form); at !== -1; at = joinedText.indexOf(form, at + 1)) {
        joined ??= joinLines(text);
        const start = joined.original(at);
        const end = joined.original(at + form.length - 1) + 1;
        if (end - start > form.length) found.push({ start, end, owners }); // only the ones cut in two
      }
    }
  }
  return found;
}

const LINE_BREAK = /[ \t]*\r?\n[ \t]*/g;

/** The way back from an offset in the text without its line breaks to one in the text. */
function joinLines(text: string): { original: (at: number) => number } {
  const joinedStarts: number[] = [];
  const originalStarts: number[] = [];
  let from = 0;
  let length = 0;
  for (const m of text.matchAll(LINE_BREAK)) {
    joinedStarts.push(length);
    originalStarts.push(from);
    length += m.index - from;
    from = m.index + m[0].length;
  }
  joinedStarts.push(length);
  originalStarts.push(from);
  const original = (at: number) => {
    let lo = 0;
    let hi = joinedStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (joinedStarts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return originalStarts[lo] + (at - joinedStarts[lo]);
  };
  return { original };
}

/**
 * The text with every found range replaced by its label (`labelOf` gives it, or undefined when
 * the range may be shown). Overlapping or touching ranges become one, labelled by the secrets that
 * make it up (`[A][B]`; one inside another: the outer one's): masking one secret never leaves part
 * of another that overlaps it in clear, whatever their lengths or the order they were registered in.
 */
export function maskFound(
  text: string,
  found: FoundSecret[],
  labelOf: (owners: readonly string[]) => string | undefined,
): string {
  const masked: { start: number; end: number; label: string }[] = [];
  for (const f of found) {
    const label = labelOf(f.owners);
    if (label !== undefined) masked.push({ start: f.start, end: f.end, label });
  }
  if (masked.length === 0) return text;
  masked.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (let i = 0; i < masked.length;) {
    const { start } = masked[i];
    let { end } = masked[i];
    const labels = [masked[i].label];
    for (i++; i < masked.length && masked[i].start <= end; i++) {
      if (masked[i].end <= end) continue; // inside the range already: its label would say nothing new
      end = masked[i].end;
      if (!labels.includes(masked[i].label)) labels.push(masked[i].label);
    }
    out += text.slice(at, start) + labels.join('');
    at = end;
  }
  return out + text.slice(at);
}
