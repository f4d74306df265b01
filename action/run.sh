#!/usr/bin/env bash
# The action's main step (action.yml only wires inputs to this script, so it runs the same way on a
# laptop and in a test). It picks the command from the event when asked to (`auto`): a pull request
# plans, a push to the default branch applies, a schedule or a manual run checks drift. The Markdown
# plan goes to a file for the comment step, stderr to another for its error section, and the exit
# code to the step's outputs; the job's verdict is left to the last step of action.yml, so that the
# comment is posted even when zoneplan fails.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

read -r -a bin <<<"${ZONEPLAN_BIN:-zoneplan}"
out_dir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
markdown=${ZONEPLAN_MARKDOWN:-$out_dir/zoneplan-plan.md}
errors=${ZONEPLAN_ERRORS:-$out_dir/zoneplan-errors.txt}
applied=$out_dir/zoneplan-apply.json
output=${GITHUB_OUTPUT:-/dev/null}
plan_file=${ZONEPLAN_PLAN_FILE:-}

command=${ZONEPLAN_COMMAND:-auto}
if [ "$command" = auto ]; then
  case "${GITHUB_EVENT_NAME:-}" in
    pull_request | pull_request_target) command=plan ;;
    schedule | workflow_dispatch) command=drift ;;
    push)
      if [ -n "${ZONEPLAN_DEFAULT_BRANCH:-}" ] && [ "${GITHUB_REF:-}" = "refs/heads/$ZONEPLAN_DEFAULT_BRANCH" ]; then
        command=apply
      else
        command=plan
      fi
      ;;
    *) command=plan ;;
  esac
fi

# Splits an input the way a shell would (quotes, backslashes; nothing expanded) into NUL-separated
# words in the file $3; a bad input (an unclosed quote) is reported in the errors file.
split_input() {
  node "$here/shell-words.mjs" "$1" "$2" >"$3" 2>>"$errors"
}

: >"$markdown"
: >"$errors"
code=
files=() extra=()
words=$(mktemp)
# (a read loop: `mapfile -d` needs bash 4.4)
if split_input files "${ZONEPLAN_FILES:-zones.yaml}" "$words"; then
  while IFS= read -r -d '' word; do files+=("$word"); done <"$words"
else
  code=1
fi
if [ -z "$code" ] && split_input args "${ZONEPLAN_ARGS:-}" "$words"; then
  while IFS= read -r -d '' word; do extra+=("$word"); done <"$words"
else
  code=1
fi
rm -f "$words"
[ -z "$code" ] || cat "$errors" >&2

[ -n "$code" ] || case "$command" in
  plan)
    # plan-file: the plan is saved for a later job's `apply` (the two-job recipe in docs/ci.md)
    save=()
    [ -n "$plan_file" ] && save=(--out "$plan_file")
    "${bin[@]}" plan "${files[@]}" --format markdown --detailed-exitcode "${save[@]}" "${extra[@]}" \
      >"$markdown" 2> >(tee "$errors" >&2)
    code=$?
    ;;
  drift)
    "${bin[@]}" drift "${files[@]}" --format markdown "${extra[@]}" >"$markdown" 2> >(tee "$errors" >&2)
    code=$?
    ;;
  apply)
    # plan-file: the saved plan the pull request's reviewers read, applied as it is (it names its
    # own files, variables and target); otherwise the files are planned and applied
    what=("${files[@]}")
    [ -n "$plan_file" ] && what=("$plan_file")
    # JSON: each step's outcome, for the `changes` output; zoneplan writes the Markdown of the run
    # to the job summary itself
    "${bin[@]}" apply "${what[@]}" --auto-approve --format json "${extra[@]}" \
      >"$applied" 2> >(tee "$errors" >&2)
    code=$?
    ;;
  *)
    echo "zoneplan action: unknown command \"$command\" (choose plan, apply, drift or auto)" | tee "$errors" >&2
    code=1
    ;;
esac
wait # for the tee of stderr (bash waits for the last process substitution)

# plan: exit 2 means "there are changes"; drift: "live state drifted"; apply: a step was applied
changes=false
case "$command" in
  apply)
    if [ -s "$applied" ]; then
      summary=$(node -e '
        const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).outcome;
        console.log(`${o.applied > 0} applied ${o.applied} of ${o.total} steps`);' "$applied")
      changes=${summary%% *}
      echo "zoneplan apply: ${summary#* }"
    fi
    ;;
  *) [ "$code" = 2 ] && changes=true ;;
esac
{
  echo "command=$command"
  echo "exit-code=$code"
  echo "changes=$changes"
  echo "markdown=$markdown"
  echo "errors=$errors"
} >>"$output"
[ -s "$markdown" ] && cat "$markdown"
exit 0
