/**
 * `zoneplan completion bash|zsh|fish`: prints a completion script for the shell. The script is
 * generated from the commander program itself (commands, sub-commands, options, option choices),
 * so a new command or option is completed without touching this file.
 */
import { Argument, type Command, type Option } from 'commander';
import { UserError } from '../errors.js';
import { globalsOf } from './globals.js';

interface Spec {
  /** the words from the root to this command, e.g. ['page-shield', 'report'] */
  path: string[];
  description: string;
  options: {
    flags: string[];
    description: string;
    takesValue: boolean;
    takesFile: boolean;
    choices?: string[];
  }[];
  subcommands: Spec[];
  /** whether the command takes file arguments (completed as files) */
  takesFiles: boolean;
  /** the values of an argument with a fixed set (e.g. the shell of `completion`) */
  argumentChoices: string[];
}

function optionSpec(o: Option): Spec['options'][number] {
  const flags = [o.long, o.short].filter((f): f is string => Boolean(f));
  return {
    flags,
    description: o.description,
    takesValue: o.required || o.optional,
    // a value named like a path (`<file>`, `<plan.json>`, `<dir>`) completes as a file name
    takesFile: /<[^>]*(file|path|dir|db|fixtures|\.json|\.ya?ml)[^>]*>/i.test(o.flags),
    choices: o.argChoices,
  };
}

/** `inherited`: the program's own options, which commander accepts after a command's name too */
function specOf(cmd: Command, path: string[], inherited: Spec['options'] = []): Spec {
  const args = (cmd as unknown as { registeredArguments?: readonly Argument[] }).registeredArguments ?? [];
  const own = cmd.options.filter((o) => !o.hidden).map(optionSpec);
  const options = [...own, ...inherited];
  return {
    path,
    description: cmd.description(),
    options,
    subcommands: cmd.commands
      .filter((c) => c.name() !== 'help')
      .map((c) =>
        specOf(
          c,
          [...path, c.name()],
          path.length === 0 ? own.filter((o) => !o.flags.includes('--version')) : inherited,
        ),
      ),
    argumentChoices: args.flatMap((a) => a.argChoices ?? []),
    // an argument with a fixed set of values is not a file
    takesFiles: args.some((a) => !a.argChoices),
  };
}

function walk(spec: Spec): Spec[] {
  return [spec, ...spec.subcommands.flatMap(walk)];
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(root: Spec): string {
  const cases = walk(root).map((s) => {
    const words = [
      ...s.subcommands.map((c) => c.path.at(-1)!),
      ...s.argumentChoices,
      ...s.options.flatMap((o) => o.flags),
    ];
    const valued = s.options.filter((o) => o.takesValue);
    const valueCases = valued
      .map((o) => {
        const reply = o.choices
          ? `COMPREPLY=($(compgen -W ${quote(o.choices.join(' '))} -- "$cur"))`
          : o.takesFile
            ? 'COMPREPLY=($(compgen -f -- "$cur"))'
            : 'COMPREPLY=()';
        return `        ${o.flags.join('|')}) ${reply}; return ;;`;
      })
      .join('\n');
    return [
      `    ${quote(s.path.join(' '))})`,
      `      case "$prev" in`,
      valueCases,
      `      esac`,
      `      COMPREPLY=($(compgen -W ${quote(words.join(' '))} -- "$cur"))`,
      s.takesFiles ? `      [[ "$cur" != -* ]] && COMPREPLY+=($(compgen -f -- "$cur"))` : '',
      `      ;;`,
    ]
      .filter(Boolean)
      .join('\n');
  });
  const commandWords = walk(root)
    .filter((s) => s.subcommands.length > 0)
    .map((s) => quote(s.path.join(' ')));
  return `# bash completion for zoneplan: eval "$(zoneplan completion bash)"
_zoneplan() {
  local cur prev path word i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  path=""
  # the command path: words that name a command, up to the cursor
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case "\${path:+$path }$word" in
      ${walk(root)
        .slice(1)
        .map((s) => quote(s.path.join(' ')))
        .join('|')}) path="\${path:+$path }$word" ;;
    esac
  done
  case "$path" in
${cases.join('\n')}
  esac
}
# commands with sub-commands: ${commandWords.join(', ')}
complete -o filenames -F _zoneplan zoneplan
`;
}

function zsh(root: Spec): string {
  // inside zsh's single quotes: `[`, `]`, `:` and `\` are _arguments' syntax, `'` ends the quote
  const esc = (s: string) => s.replace(/[[\]:\\]/g, '\\$&').replace(/'/g, `'\\''`);
  const argsOf = (s: Spec) =>
    s.options
      .map((o) => {
        const value = o.takesValue
          ? o.choices
            ? `:value:(${o.choices.join(' ')})`
            : o.takesFile
              ? ':file:_files'
              : ':value: '
          : '';
        const names = o.flags.length > 1 ? `(${o.flags.join(' ')})'{${o.flags.join(',')}}'` : o.flags[0];
        return `    '${names}[${esc(o.description)}]${value}'`;
      })
      .join(' \\\n');
  const fn = (s: Spec): string => {
    const name = ['_zoneplan', ...s.path].join('_').replace(/-/g, '_');
    const subs = s.subcommands.map((c) => `      '${c.path.at(-1)}:${esc(c.description)}'`).join('\n');
    const body =
      s.subcommands.length > 0
        ? `  local line state
  _arguments -C \\
${argsOf(s)}${s.options.length > 0 ? ' \\\n' : ''}    '1: :->cmd' '*:: :->args'
  case $state in
    cmd) local -a cmds; cmds=(
${subs}
    ); _describe command cmds ;;
    args) case $line[1] in
${s.subcommands.map((c) => `      ${c.path.at(-1)}) ${['_zoneplan', ...c.path].join('_').replace(/-/g, '_')} ;;`).join('\n')}
    esac ;;
  esac`
        : `  _arguments \\
${argsOf(s)}${s.options.length > 0 ? ' \\\n' : ''}    ${s.argumentChoices.length > 0 ? `'1:value:(${s.argumentChoices.join(' ')})'` : s.takesFiles ? "'*:file:_files'" : "'*: :'"}`;
    return `${name}() {\n${body}\n}\n${s.subcommands.map(fn).join('')}`;
  };
  return `#compdef zoneplan
# zsh completion for zoneplan: zoneplan completion zsh > "\${fpath[1]}/_zoneplan"
${fn(root)}
compdef _zoneplan zoneplan
`;
}

function fish(root: Spec): string {
  const lines = [
    '# fish completion for zoneplan: zoneplan completion fish > ~/.config/fish/completions/zoneplan.fish',
  ];
  const esc = (s: string) => quote(s);
  const condition = (s: Spec) => {
    if (s.path.length === 0) return '__fish_use_subcommand';
    const parentSubs = s.path.length === 1 ? [] : [s.path.at(-1)!];
    return `__fish_seen_subcommand_from ${s.path[0]}${parentSubs.length ? `; and __fish_seen_subcommand_from ${parentSubs[0]}` : ''}`;
  };
  lines.push('complete -c zoneplan -f');
  for (const s of walk(root)) {
    for (const c of s.subcommands) {
      const cond =
        s.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${s.path.at(-1)}`;
      lines.push(`complete -c zoneplan -n ${esc(cond)} -a ${esc(c.path.at(-1)!)} -d ${esc(c.description)}`);
    }
    for (const o of s.options) {
      const names = o.flags
        .map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`))
        .join(' ');
      const value = o.takesValue
        ? o.choices
          ? ` -x -a ${esc(o.choices.join(' '))}`
          : o.takesFile
            ? ' -r -F'
            : ' -x'
        : '';
      const cond = s.path.length === 0 ? '' : ` -n ${esc(condition(s))}`;
      lines.push(`complete -c zoneplan${cond} ${names}${value} -d ${esc(o.description)}`);
    }
    if (s.takesFiles && s.path.length > 0) lines.push(`complete -c zoneplan -n ${esc(condition(s))} -F`);
    if (s.argumentChoices.length > 0)
      lines.push(`complete -c zoneplan -n ${esc(condition(s))} -a ${esc(s.argumentChoices.join(' '))}`);
  }
  return lines.join('\n') + '\n';
}

const shells = { bash, zsh, fish } as const;

/** The completion script of `program` for `shell`. */
export function completionScript(program: Command, shell: string): string {
  const render = shells[shell as keyof typeof shells];
  if (!render) throw new UserError(`completion: unknown shell "${shell}"; choose bash, zsh or fish`);
  return render(specOf(program, []));
}

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(shells)))
    .addHelpText(
      'after',
      `
Examples:
  eval "$(zoneplan completion bash)"                            # in ~/.bashrc
  zoneplan completion zsh > "\${fpath[1]}/_zoneplan"             # then restart zsh
  zoneplan completion fish > ~/.config/fish/completions/zoneplan.fish`,
    )
    .action((shell: string, _opts: unknown, command: Command) => {
      globalsOf(command).io.stdout.write(completionScript(program, shell));
    });
}
