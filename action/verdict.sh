#!/usr/bin/env bash
# The action's last step: the job fails when zoneplan failed (exit 1), when apply did not finish
# (any non-zero), or when a drift check found drift (exit 2, so that a scheduled run alerts). A plan
# with changes (exit 2) is a success: the change is what the pull request is for.
set -u
command=${ZONEPLAN_RAN:-plan}
code=${ZONEPLAN_EXIT_CODE:-1}
case "$command:$code" in
  *:0 | plan:2) exit 0 ;;
  drift:2)
    echo "zoneplan drift: live state differs from the desired state (see the job summary)" >&2
    exit 2
    ;;
  *)
    echo "zoneplan $command exited $code" >&2
    exit "$code"
    ;;
esac
