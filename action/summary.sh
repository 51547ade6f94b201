#!/usr/bin/env bash
# The action's summary step (runs even when the run failed): `awf ci summary` writes the outputs
# run-id, status, summary-json and report-path, the job summary, the annotations and the SARIF.
set -euo pipefail
args=(ci summary)
id_file="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/awf-run-id"
if [ ! -s "$id_file" ]; then
  echo "awf: no run to summarize (the workflow did not validate, or awf did not start)"
  exit 0
fi
args+=("$(cat "$id_file")")
[ "${AWF_ANNOTATIONS:-true}" = true ] || args+=(--annotations=false)
[ -n "${AWF_SARIF:-}" ] && args+=(--sarif "$AWF_SARIF")
awf "${args[@]}"
