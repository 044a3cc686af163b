#!/usr/bin/env bash
# Fetch, HERE (a machine whose pip reaches PyPI), what benchmarks/gpu/run.sh installs on the device machine, which
# can download nothing: PyCUDA's source archive (built there against its CUDA and numpy) and PyCUDA's pure-Python
# dependencies as wheels for CPython 3.12 on x86-64 (the device image's python3).
#
#   bash benchmarks/gpu/fetch.sh [DIR]        # DIR defaults to .whl in the repository root
#
# The archives are never committed: .whl/ is ignored by .gitignore and, so that a checkout with another
# .gitignore still keeps them out of a commit and out of the tree the device tool sends uncarried, this script also
# appends /.whl/ to the repository's .git/info/exclude (once). The device call then names it: carry [".whl"].
# A pycuda-*-cp312-*.whl that a device run built (it comes back in that run's $OUT) may be copied in beside them:
# run.sh then installs it instead of building PyCUDA again. Each dependency is pinned below; after changing a pin, run this again and check each wheel's Requires-Dist
# (unzip -p .whl/NAME-*.whl '*/METADATA' | grep ^Requires-Dist): every non-extra requirement must be here too.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEST="${1:-$ROOT/.whl}"
PY="${PYTHON:-python3}"

PYCUDA="pycuda==2026.1"
# pycuda 2026.1 requires pytools, platformdirs, mako; pytools requires platformdirs, siphash24, typing-extensions;
# mako requires MarkupSafe (the only one with a compiled part: its manylinux cp312 wheel)
DEPS=(
    "pytools==2026.1.1"
    "platformdirs==4.14.8"
    "mako==1.4.3"
    "markupsafe==3.0.4"
    "typing_extensions==4.16.0"
    "siphash24==1.9"
)

mkdir -p "$DEST"
if [ "$DEST" = "$ROOT/.whl" ]; then
    exclude="$(git -C "$ROOT" rev-parse --git-path info/exclude 2>/dev/null || true)"
    if [ -n "$exclude" ]; then
        case "$exclude" in /*) ;; *) exclude="$ROOT/$exclude" ;; esac
        mkdir -p "$(dirname "$exclude")"
        grep -qxF '/.whl/' "$exclude" 2>/dev/null || echo '/.whl/' >>"$exclude"
    fi
fi

# one version of each (run.sh refuses two): drop what an earlier pin left
for n in pycuda pytools platformdirs mako markupsafe typing_extensions siphash24; do
    find "$DEST" -maxdepth 1 -type f -iname "${n}-*" ! -iname 'pycuda-*-cp312-*.whl' -delete
done

# the source archive: only pycuda itself as source (its build requirements, fetched into pip's isolated build
# environment to read its metadata, are not kept)
"$PY" -m pip download -q --no-deps --no-binary=pycuda -d "$DEST" "$PYCUDA"
# the wheels, for the device's interpreter rather than this one
"$PY" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp --abi cp312 \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 --platform any \
    -d "$DEST" "${DEPS[@]}"

echo "fetch.sh: in $DEST:"
ls -l "$DEST"
kib="$(du -sk "$DEST" | cut -f1)"
echo "fetch.sh: $((kib / 1024)) MiB in all (the device call carries at most 64 MiB with the working tree)"
if [ "$kib" -gt $((32 * 1024)) ]; then echo "fetch.sh: $DEST is over 32 MiB: remove what is not needed" >&2; exit 1; fi
