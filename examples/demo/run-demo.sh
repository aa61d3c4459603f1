#!/bin/sh
# Builds the demo repository and runs benchpr on it: base `main` vs PR `faster-lookup`, dry run,
# printing the pull-request comment.  Usage: run-demo.sh [BENCHPR_BINARY] [DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
benchpr=${1:-$here/../../build/src/benchpr}
dir=${2:-${TMPDIR:-/tmp}/benchpr-demo}
"$here/make-demo-repo.sh" "$dir" > /dev/null
exec "$benchpr" run -C "$dir" --base main --head faster-lookup --dry-run --format markdown
