/**
 * Every form a secret may take in what the CLI prints and writes, worked out here on its own (not
 * with src/redact-forms.ts: a search built from the code under test would find only what that code
 * already masks): the value as it is, lower- and upper-cased, URL- and form-encoded; each of those
 * JSON-escaped once and twice (a JSON string inside a JSON line), YAML double- and single-quoted and
 * Markdown-cell escaped; for a value of several lines, each line the same way. A form is found in a
 * text as it is, or with all whitespace taken out of both (a renderer that wraps a long line, or
 * keeps a value's line breaks and indents the lines, splits the form; whitespace-free, the pieces
 * join again).
 */
import { stringify } from 'yaml';

export interface SecretForm {
  form: string;
  how: string;
}

const CHANGES: [string, (v: string) => string][] = [
  ['as is', (v) => v],
  ['lower-cased', (v) => v.toLowerCase()],
  ['upper-cased', (v) => v.toUpperCase()],
  ['URL-encoded', (v) => encodeURIComponent(v)],
  ['form-encoded', (v) => encodeURIComponent(v).replace(/%20/g, '+')],
];

const json = (v: string) => JSON.stringify(v).slice(1, -1);
const ESCAPES: [string, (v: string) => string][] = [
  ['', (v) => v],
  ['JSON-escaped', json],
  ['JSON-escaped twice', (v) => json(json(v))],
  [
    'YAML double-quoted',
    (v) => stringify(v, { defaultStringType: 'QUOTE_DOUBLE', lineWidth: 0 }).trimEnd().slice(1, -1),
  ],
  ['YAML single-quoted', (v) => v.replace(/'/g, "''")],
  ['a Markdown cell', (v) => v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')],
  ['JSON-escaped in a Markdown cell', (v) => json(v).replace(/\|/g, '\\|')],
];

/** The forms of `value` at least 6 characters long (the redactor's minimum), each with how it was made. */
export function secretForms(value: string): SecretForm[] {
  const out = new Map<string, string>();
  for (const [changed, change] of CHANGES) {
    for (const [escaped, escape] of ESCAPES) {
      const form = escape(change(value));
      if (form.length >= 6 && !out.has(form)) out.set(form, [changed, escaped].filter(Boolean).join(', '));
    }
  }
  const lines = value.split('\n');
  if (lines.length > 1) {
    lines.forEach((line, i) => {
      if (line.length < 6) return;
      for (const f of secretForms(line)) if (!out.has(f.form)) out.set(f.form, `line ${i + 1}, ${f.how}`);
    });
  }
  return [...out].map(([form, how]) => ({ form, how }));
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

/** How each form of each named secret shows in `text` (`NAME (how)`), or nothing. */
export function findForms(text: string, secrets: Record<string, string>): string[] {
  const found: string[] = [];
  const squeezed = squeeze(text);
  for (const [name, value] of Object.entries(secrets)) {
    for (const { form, how } of secretForms(value)) {
      const short = squeeze(form);
      if (text.includes(form)) found.push(`${name} (${how})`);
      else if (short.length >= 12 && squeezed.includes(short))
        found.push(`${name} (${how}, split across lines)`);
    }
  }
  return found;
}
