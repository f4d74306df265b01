/**
 * A small parser for rule expressions (the Rules language that selects traffic), enough to tell a
 * well-formed expression from garbage and say where it breaks. It does not evaluate anything.
 *
 *   expr       := or
 *   or         := xor (("or" | "||") xor)*
 *   xor        := and (("xor" | "^^") and)*
 *   and        := unary (("and" | "&&") unary)*
 *   unary      := ("not" | "!") unary | "(" expr ")" | comparison
 *   comparison := operand [compare-op operand | "in" set | "in" $list]
 *   operand    := field ("[" (string | number | "*") "]")* | call | literal
 *   call       := name "(" [operand ("," operand)*] ")"
 *   set        := "{" item+ "}"      item := string | number | range (1..9) | ip | cidr
 *
 * `http.host eq "example.com"` is the common form; `http.host in {"a.com" "b.com"}`,
 * `not ssl`, `(a or b) and c`, `lower(http.host) eq "x"` are also accepted.
 */
import { parseIpv4, parseIpv6 } from '../dns/ip.js';

export interface ExpressionError {
  /** 1-based column of the offending character */
  column: number;
  message: string;
}

const COMPARE_OPS = new Set([
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', '==', '!=', '<', '<=', '>', '>=',
  'contains', 'matches', '~', 'wildcard', 'strict',
]); // prettier-ignore
const KEYWORDS = new Set(['and', 'or', 'xor', 'not', 'in', ...COMPARE_OPS]);

type TokenKind = 'name' | 'string' | 'bare' | 'list' | 'punct' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
  column: number;
}

/** Longest expression accepted (the service's limit on a rule expression). */
export const MAX_EXPRESSION_LENGTH = 4096;

/** Parses an expression; undefined when well-formed, else the first error with its column. */
export function checkExpression(source: string): ExpressionError | undefined {
  if (source.trim() === '') return { column: 1, message: 'is empty' };
  if (source.length > MAX_EXPRESSION_LENGTH) {
    return {
      column: MAX_EXPRESSION_LENGTH + 1,
      message: `is longer than ${MAX_EXPRESSION_LENGTH} characters`,
    };
  }
  try {
    const parser = new Parser(tokenize(source));
    parser.expression();
    parser.expectEnd();
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxFailure) return { column: err.column, message: err.message };
    throw err;
  }
}

class SyntaxFailure extends Error {
  constructor(
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const column = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new SyntaxFailure(column, 'string is not closed (missing ")');
      tokens.push({ kind: 'string', text: src.slice(i, j + 1), column });
      i = j + 1;
    } else if (c === 'r' && /^r#*"/.test(src.slice(i))) {
      const hashes = /^r(#*)"/.exec(src.slice(i))![1];
      const close = `"${hashes}`;
      const end = src.indexOf(close, i + 2 + hashes.length);
      if (end < 0) throw new SyntaxFailure(column, `raw string is not closed (missing ${close})`);
      tokens.push({ kind: 'string', text: src.slice(i, end + close.length), column });
      i = end + close.length;
    } else if (c === '$') {
      const m = /^\$[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*/.exec(src.slice(i));
      if (!m) throw new SyntaxFailure(column, 'a list reference is $ followed by the list name');
      tokens.push({ kind: 'list', text: m[0], column });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*/.exec(src.slice(i))!;
      tokens.push({ kind: 'name', text: m[0], column });
      i += m[0].length;
    } else if (/[0-9:]/.test(c)) {
      // numbers, ranges (1..10), IPv4/IPv6 addresses and CIDRs; their form is checked where used
      const m = /^[0-9A-Fa-f:.]+(\/[0-9]+)?/.exec(src.slice(i))!;
      tokens.push({ kind: 'bare', text: m[0], column });
      i += m[0].length;
    } else {
      const two = src.slice(i, i + 2);
      if (['==', '!=', '<=', '>=', '&&', '||', '^^'].includes(two)) {
        tokens.push({ kind: 'punct', text: two, column });
        i += 2;
      } else if ('(){}[],!<>~*'.includes(c)) {
        tokens.push({ kind: 'punct', text: c, column });
        i++;
      } else {
        throw new SyntaxFailure(column, `unexpected character ${JSON.stringify(c)}`);
      }
    }
  }
  tokens.push({ kind: 'end', text: '', column: src.length + 1 });
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos];
  }
  private next(): Token {
    return this.tokens[this.pos++];
  }
  private is(...texts: string[]): boolean {
    const t = this.peek();
    return (t.kind === 'name' || t.kind === 'punct') && texts.includes(t.text);
  }
  private fail(expected: string): never {
    const t = this.peek();
    const found = t.kind === 'end' ? 'the end of the expression' : `"${t.text}"`;
    throw new SyntaxFailure(t.column, `expected ${expected}, found ${found}`);
  }

  expectEnd(): void {
    if (this.peek().kind !== 'end') this.fail('"and", "or" or the end of the expression');
  }

  expression(): void {
    this.binary(['or', '||'], () =>
      this.binary(['xor', '^^'], () => this.binary(['and', '&&'], () => this.unary())),
    );
  }

  private binary(ops: string[], operand: () => void): void {
    operand();
    while (this.is(...ops)) {
      this.next();
      operand();
    }
  }

  private unary(): void {
    if (this.is('not', '!')) {
      this.next();
      this.unary();
    } else if (this.is('(')) {
      this.next();
      this.expression();
      if (!this.is(')')) this.fail('")" to close the parenthesis');
      this.next();
    } else {
      this.comparison();
    }
  }

  private comparison(): void {
    this.operand();
    if (this.is('in')) {
      this.next();
      if (this.peek().kind === 'list') this.next();
      else this.set();
      return;
    }
    if (this.is(...COMPARE_OPS)) {
      const op = this.next();
      if (op.text === 'strict') {
        if (!this.is('wildcard')) this.fail('"wildcard" after "strict"');
        this.next();
      }
      this.operand();
    }
  }

  private operand(): void {
    const t = this.peek();
    if (t.kind === 'string') {
      this.next();
    } else if (t.kind === 'bare') {
      this.literal(this.next());
    } else if (t.kind === 'name' && !KEYWORDS.has(t.text)) {
      this.next();
      if (this.is('(')) this.call();
      else this.indexes();
    } else {
      this.fail('a field, a function or a value');
    }
  }

  private call(): void {
    this.next(); // (
    if (this.is(')')) {
      this.next();
      return;
    }
    for (;;) {
      this.operand();
      if (this.is(',')) {
        this.next();
        continue;
      }
      if (!this.is(')')) this.fail('"," or ")" in the function arguments');
      this.next();
      this.indexes();
      return;
    }
  }

  private indexes(): void {
    while (this.is('[')) {
      this.next();
      const t = this.peek();
      if (t.kind === 'string' || (t.kind === 'bare' && /^[0-9]+$/.test(t.text)) || this.is('*')) this.next();
      else this.fail('a string, a number or * inside [ ]');
      if (!this.is(']')) this.fail('"]"');
      this.next();
    }
  }

  private set(): void {
    if (!this.is('{')) this.fail('"{" to start the set of values after "in"');
    this.next();
    let count = 0;
    while (!this.is('}')) {
      const t = this.peek();
      if (t.kind === 'string') this.next();
      else if (t.kind === 'bare') this.literal(this.next());
      else this.fail(count === 0 ? 'a value in the set' : 'a value or "}" to close the set');
      count++;
    }
    if (count === 0) this.fail('at least one value in the set');
    this.next();
  }

  private literal(t: Token): void {
    const ok =
      /^[0-9]+$/.test(t.text) ||
      /^[0-9]+\.\.[0-9]+$/.test(t.text) ||
      /^[0-9]+\.[0-9]+$/.test(t.text) ||
      isAddressOrCidr(t.text);
    if (!ok) throw new SyntaxFailure(t.column, `"${t.text}" is not a number, range, IP address or CIDR`);
  }
}

/** An IPv4 or IPv6 address, or a CIDR, read by the one address parser of the rules (../dns/ip.ts). */
function isAddressOrCidr(text: string): boolean {
  const [address, prefix, extra] = text.split('/');
  if (extra !== undefined || address === undefined) return false;
  const v6 = address.includes(':');
  if ((v6 ? parseIpv6(address) : parseIpv4(address)) === null) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v6 ? 128 : 32);
}
