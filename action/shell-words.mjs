#!/usr/bin/env node
// Splits an action input into words the way a POSIX shell does, so that
// `args: --zone '*.acme.net'` gives zoneplan `--zone` and `*.acme.net`: spaces, tabs and newlines
// separate words; single quotes keep everything literally; double quotes keep everything but a
// backslash before $, `, ", \ or a newline; a backslash outside quotes keeps the next character.
// Nothing is expanded ($VAR, $(...), globs stay as written): the input can come from a pull request,
// and `eval` would run it. The words are printed NUL-separated, for bash's `mapfile -d ''`.
// Usage: node shell-words.mjs INPUT-NAME VALUE (the name is only for the error message).
import { pathToFileURL } from 'node:url';

export function shellWords(text) {
  const words = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`a single quote at character ${i + 1} is not closed`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '$`"\\\n'.includes(text[j + 1])) {
          if (text[j + 1] !== '\n') word += text[j + 1];
          j++;
        } else word += text[j];
      }
      if (j >= text.length) throw new Error(`a double quote at character ${i + 1} is not closed`);
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new Error('the value ends with a backslash');
      // a backslash before a newline joins the lines, as in a shell
      if (text[i + 1] !== '\n') {
        word += text[i + 1];
        inWord = true;
      }
      i++;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [name, value = ''] = process.argv.slice(2);
  try {
    process.stdout.write(
      shellWords(value)
        .map((w) => w + '\0')
        .join(''),
    );
  } catch (err) {
    process.stderr.write(`zoneplan action: input ${name}: ${err.message}: ${value}\n`);
    process.exit(1);
  }
}
