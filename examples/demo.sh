#!/usr/bin/env bash
# `make demo`: runs examples/workflows/quickstart.yaml offline (`examples/demo.sh <workflow>` runs
# another, e.g. `make demo-review` runs examples/workflows/review.yaml). It starts the scripted
# OpenAI-compatible demo model on a free loopback port, points awf at it, runs the workflow (an
# agent step whose reads, greps, refused Bash call and notes-plugin calls all go through awf's
# router), prints the activity of that run and the path of its HTML report, and stops the model
# server.
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
model_pid=""
cleanup() {
  [ -n "$model_pid" ] && kill "$model_pid" 2>/dev/null && wait "$model_pid" 2>/dev/null
  rm -f "$log" "$log.run"
}
trap cleanup EXIT

bin/demo-model --addr 127.0.0.1:0 >"$log" &
model_pid=$!
url=""
for _ in $(seq 100); do
  url="$(sed -n 's/^listening on //p' "$log" | head -n1)"
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { echo "demo: the demo model did not start" >&2; exit 1; }
echo "demo: scripted model at $url (examples/demo-model: a script, not a real LLM)"
echo

status=0
OPENAI_BASE_URL="$url" OPENAI_MODEL=awf-demo bin/awf run --report "${1:-examples/workflows/quickstart.yaml}" | tee "$log.run" || status=$?
run_id="$(sed -n "s/^Running workflow '.*' (run \(.*\))$/\1/p" "$log.run" | head -n1)"
echo
echo "demo: bin/awf activity list --run $run_id"
bin/awf activity list --run "$run_id"
echo
echo "demo: the run's HTML report (timeline, every tool call, the path taken; no network needed):"
echo "  .awf/runs/$run_id/report.html"
exit "$status"
