#!/usr/bin/env bash
# npm run contracts:lint: slither over contracts/ with the project's solc-js answering its
# --standard-json (scripts/slither/solc-standard-json.mjs), then every finding checked against
# the triage in contracts/slither-triage.json (scripts/slither/check-findings.ts): exit 1 on any
# finding without an entry. Slither comes pinned from PyPI into .tools/slither (.ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."

SLITHER_VERSION=0.11.6
TOOL_DIR=.tools/slither
if ! PYTHONPATH="$TOOL_DIR" "$TOOL_DIR/bin/slither" --version 2>/dev/null | grep -qx "$SLITHER_VERSION"; then
  echo "slither $SLITHER_VERSION is not in $TOOL_DIR; install it with:" >&2
  echo "  python3 -m pip install --target $TOOL_DIR slither-analyzer==$SLITHER_VERSION" >&2
  exit 1
fi

report="$(mktemp -d)/slither.json"
# OpenZeppelin is imported from node_modules (remapped for solc) and not analysed; informational and
# optimization findings (naming, pragma, assembly use, ...) are style, not risk, and are not gated.
# --fail-none: slither's exit code then means "could not run"; the findings are judged below.
PYTHONPATH="$TOOL_DIR" "$TOOL_DIR/bin/slither" contracts \
  --solc-standard-json \
  --solc scripts/slither/solc-standard-json.mjs \
  --solc-remaps "@openzeppelin/=node_modules/@openzeppelin/" \
  --filter-paths node_modules \
  --exclude-informational --exclude-optimization \
  --fail-none \
  --json "$report" >/dev/null 2>"$report.log" || { cat "$report.log" >&2; exit 1; }
node --import tsx scripts/slither/check-findings.ts "$report" contracts/slither-triage.json
