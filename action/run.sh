#!/usr/bin/env bash
# The action's run step: validate the workflow (its errors and warnings as annotations), then run
# it with the action's inputs, one name=value per line of AWF_INPUTS. The run id goes to
# $RUNNER_TEMP/awf-run-id for the summary step; the exit code is awf run's.
set -euo pipefail
id_file="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/awf-run-id"
: >"$id_file"
args=(run "$AWF_WORKFLOW")
n=0
while IFS= read -r line || [ -n "$line" ]; do
  n=$((n + 1))
  line="${line%$'\r'}"
  case "$line" in ''|'#'*) continue ;; esac
  case "$line" in
    [A-Za-z_]*=*) args+=(--input "$line") ;;
    *) echo "::error title=awf inputs::line $n of the inputs is not name=value" >&2; exit 1 ;;
  esac
done <<<"${AWF_INPUTS:-}"
[ "${AWF_REPORT:-false}" = true ] && args+=(--report)
[ "${AWF_RESUME:-false}" = true ] && args+=(--resume-if-interrupted)

if [ "${AWF_ANNOTATIONS:-true}" = true ]; then
  awf ci validate "$AWF_WORKFLOW"
else
  awf validate "$AWF_WORKFLOW"
fi

out="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/awf-run.XXXXXX")"
status=0
awf "${args[@]}" | tee "$out" || status=${PIPESTATUS[0]}
sed -n "s/^Running workflow '.*' (run \(.*\))\$/\1/p" "$out" | head -n1 >"$id_file"
rm -f "$out"
exit "$status"
