#!/bin/sh
# Creates a git repository from the demo project: a base commit on `main`, then a "pull request"
# commit on `faster-lookup` that makes BM_Lookup faster (binary search) and BM_Join slower
# (quadratic string building).  Usage: make-demo-repo.sh DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: make-demo-repo.sh DIR}
rm -rf "$dir"
mkdir -p "$dir"
cp -R "$here/project/." "$dir/"
cd "$dir"
git init -q -b main
git config user.name "benchpr demo"
git config user.email "demo@example.invalid"
git config commit.gpgsign false
git add -A
git commit -q -m "Demo project with Google Benchmark suites"
git checkout -q -b faster-lookup
cp "$here/pr/lookup.hpp" src/lookup.hpp
cp "$here/pr/text.hpp" src/text.hpp
git commit -q -am "perf: binary search in IdSet; simplify join"
echo "$dir"
