#!/usr/bin/env bash
# The action's main step (action.yml only wires inputs to this script, so it runs the same way on a
# laptop and in a test). It picks the command from the event when asked to (`auto`): a pull request
# plans, a push to the default branch applies, a schedule or a manual run checks drift. The Markdown
# plan goes to a file for the comment step, stderr to another for its error section, and the exit
# code to the step's outputs; the job's verdict is left to the last step of action.yml, so that the
# comment is posted even when zoneplan fails.
set -uo pipefail

read -r -a bin <<<"${ZONEPLAN_BIN:-zoneplan}"
read -r -a files <<<"${ZONEPLAN_FILES:-zones.yaml}"
read -r -a extra <<<"${ZONEPLAN_ARGS:-}"
out_dir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
markdown=${ZONEPLAN_MARKDOWN:-$out_dir/zoneplan-plan.md}
errors=${ZONEPLAN_ERRORS:-$out_dir/zoneplan-errors.txt}
output=${GITHUB_OUTPUT:-/dev/null}

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

: >"$markdown"
case "$command" in
  plan)
    "${bin[@]}" plan "${files[@]}" --format markdown --detailed-exitcode "${extra[@]}" >"$markdown" 2> >(tee "$errors" >&2)
    code=$?
    ;;
  drift)
    "${bin[@]}" drift "${files[@]}" --format markdown "${extra[@]}" >"$markdown" 2> >(tee "$errors" >&2)
    code=$?
    ;;
  apply)
    "${bin[@]}" apply "${files[@]}" --auto-approve "${extra[@]}" 2> >(tee "$errors" >&2)
    code=$?
    ;;
  *)
    echo "zoneplan action: unknown command \"$command\" (choose plan, apply, drift or auto)" >&2
    code=1
    ;;
esac
wait # for the tee of stderr (bash waits for the last process substitution)

# exit 2 means "there are changes" for plan and "live state drifted" for drift
changes=false
[ "$code" = 2 ] && changes=true
{
  echo "command=$command"
  echo "exit-code=$code"
  echo "changes=$changes"
  echo "markdown=$markdown"
  echo "errors=$errors"
} >>"$output"
[ -s "$markdown" ] && cat "$markdown"
exit 0
