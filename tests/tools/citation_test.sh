#!/usr/bin/env bash
# LICENSE and CITATION.cff (issue 43 sec. 1): the licence is MIT with the project's copyright
# line; CITATION.cff is valid YAML in Citation File Format 1.2.0 with the keys CFF requires,
# its version is CMakeLists.txt's project version, and it lists the papers the simulator
# reproduces. Usage: citation_test.sh SOURCE_DIR
set -euo pipefail
root=${1:?usage: citation_test.sh SOURCE_DIR}
fail() { echo "citation_test: $*" >&2; exit 1; }
[ -f "$root/LICENSE" ] || fail "no $root/LICENSE"
head -n 1 "$root/LICENSE" | grep -qx 'MIT License' || fail "$root/LICENSE is not the MIT licence"
grep -qx 'Copyright (c) 2026 the fbosim authors' "$root/LICENSE" || fail "$root/LICENSE: no copyright line"
[ -f "$root/CITATION.cff" ] || fail "no $root/CITATION.cff"
want=$(sed -n 's/^project(fbosim VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
[ -n "$want" ] || fail "no project version in $root/CMakeLists.txt"
/usr/bin/python3 - "$root/CITATION.cff" "$want" <<'PY'
import sys
import yaml

path, want = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    cff = yaml.safe_load(f)
def fail(msg):
    sys.exit(f"citation_test: {path}: {msg}")
for key in ("cff-version", "message", "title", "authors", "version", "abstract", "license",
            "references"):
    if key not in cff:
        fail(f"no key {key}")
if cff["cff-version"] != "1.2.0":
    fail(f"cff-version is {cff['cff-version']!r}, not '1.2.0'")
if str(cff["version"]) != want:
    fail(f"version {cff['version']!r} is not CMakeLists.txt's {want!r}")
if cff["license"] != "MIT":
    fail(f"license {cff['license']!r}, but LICENSE is MIT")
titles = {r["title"] for r in cff["references"]}
for paper in ("Differentially Private Federated Bayesian Optimization with Distributed Exploration",
              "Federated Bayesian Optimization via Thompson Sampling",
              "Private Outsourced Bayesian Optimization",
              "Differentially Private Bayesian Optimization"):
    if paper not in titles:
        fail(f"the reproduced paper {paper!r} is not among the references")
for r in cff["references"]:
    if not r.get("authors") or not r.get("year"):
        fail(f"reference {r['title']!r} lacks authors or year")
print(f"citation_test: LICENSE (MIT) and CITATION.cff (version {want}, "
      f"{len(titles)} references) agree with the project")
PY
