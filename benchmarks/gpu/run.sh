#!/usr/bin/env bash
# The one prepared device check (issue #26): on a machine with a CUDA GPU it installs PyCUDA from what
# benchmarks/gpu/fetch.sh put in .whl/ (its pure-Python dependencies as wheels, PyCUDA built from its source
# archive there), runs every CUDA test that skips without a GPU and benchmarks/bench_gpu.py, and writes logs and a
# results table under $OUT. It downloads nothing: pip runs with --no-index and no configuration file.
#
#   bash benchmarks/gpu/run.sh [--dry-run] [--quick] [--wheels DIR] [--python PY] [--nvcc all|none|STEM,...]
#                              [--build-without-gpu]
#
# A GPU session: fetch here first (bash benchmarks/gpu/fetch.sh), then the device tool's run with carry [".whl"],
# command `bash benchmarks/gpu/run.sh`, timeout_s 540 (benchmarks/README.md). It is sized to finish within 8
# minutes on one H100: every step has its own time limit, a failed step is recorded and the next one still runs,
# and the table of steps is always the last thing printed.
#
# Without a GPU (no nvidia-smi, or one that lists no GPU), or with --dry-run, it runs the steps that need none --
# the arguments, locating the carried files, the CPU-side imports, nvcc on generated/cuda/*.cu -- and then stops
# with one line saying so, exit status 0. --build-without-gpu also installs the wheels and builds PyCUDA there.
#
# Exit status: 0 when every step that ran passed (or it stopped before the GPU steps), 1 when a step failed,
# 2 for a usage error or missing carried files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

usage() { sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

DRY_RUN=0
QUICK=0
BUILD_WITHOUT_GPU=0
WHEELS="$ROOT/.whl"
PY="${PYTHON:-python3}"
NVCC_WHICH="all"
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --quick) QUICK=1 ;;
        --build-without-gpu) BUILD_WITHOUT_GPU=1 ;;
        --wheels) WHEELS="${2:?--wheels needs a directory}"; shift ;;
        --wheels=*) WHEELS="${1#*=}" ;;
        --python) PY="${2:?--python needs an interpreter}"; shift ;;
        --python=*) PY="${1#*=}" ;;
        --nvcc) NVCC_WHICH="${2:?--nvcc needs all, none or a list of stems}"; shift ;;
        --nvcc=*) NVCC_WHICH="${1#*=}" ;;
        -h|--help) usage; exit 0 ;;
        *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

OUT="${OUT:-$ROOT/gpu-out}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
WORK="${TR_GPU_WORK:-${TMPDIR:-/tmp}/tensor-rules-gpu}"     # the build and install area, kept off $OUT
SITE="$WORK/site"
mkdir -p "$WORK"
export TENSOR_RULES_CACHE="$WORK/cache"                     # one cubin cache for the tests and the benchmark
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
# nothing is ever fetched: no index, no configured extra index or find-links, no version check
export PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
[ -d /usr/local/cuda/bin ] && case ":$PATH:" in *":/usr/local/cuda/bin:"*) ;; *) PATH="$PATH:/usr/local/cuda/bin" ;; esac
export PATH
NPROC="$(nproc 2>/dev/null || echo 2)"

# everything printed also goes to $OUT/run.log
exec 3>&1 4>&2
exec > >(tee "$OUT/run.log") 2>&1
TEE_PID=$!

# ------------------------------------------------------------------------------------------------ results table
STEPS=()
FAILED=0
T_START=$SECONDS
record() {   # record NAME STATUS SECONDS NOTE
    STEPS+=("$(printf '%-22s %-8s %6ss  %s' "$1" "$2" "$3" "$4")")
    if [ "$2" = "FAILED" ]; then FAILED=1; fi
}
table() {
    {
        echo
        echo "== benchmarks/gpu/run.sh results ($(date -u +%Y-%m-%dT%H:%MZ), $((SECONDS - T_START)) s in all, logs in $OUT)"
        printf '%-22s %-8s %7s  %s\n' "step" "status" "time" "note"
        local s
        for s in "${STEPS[@]}"; do echo "$s"; done
    } | tee "$OUT/results.txt"
}
finish() {   # the table last; then let tee write out the log and the output before the script is gone
    local rc=$?
    table
    exec 1>&3 2>&4
    local i
    for i in $(seq 50); do kill -0 "$TEE_PID" 2>/dev/null || break; sleep 0.1; done
    exit "$rc"
}
trap finish EXIT
say() { echo "run.sh: $*"; }
# the whole run stays inside TR_GPU_BUDGET_S (default 470 s: the device call's timeout_s 540 less its start); each
# step's limit is cut to what is left
BUDGET_S="${TR_GPU_BUDGET_S:-470}"
capped() { local left=$((BUDGET_S - (SECONDS - T_START))); if [ "$1" -lt "$left" ]; then echo "$1"; else echo "$left"; fi; }
# run a step with a time limit: step NAME LIMIT_S LOG CMD... ; its status is returned, its output goes to LOG
step() {
    local name="$1" limit t0=$SECONDS rc=0 log="$3"
    limit="$(capped "$2")"
    shift 3
    if [ "$limit" -lt 20 ]; then say "$name: not run: ${limit}s left of the ${BUDGET_S}s budget"; LAST_DT=0; echo "not run: no time left" >"$log"; return 124; fi
    say "$name: $* (limit ${limit}s, log $log)"
    timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$log" || rc=$?
    LAST_DT=$((SECONDS - t0))
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then say "$name: stopped at its ${limit}s limit"; fi
    return "$rc"
}

say "repository $ROOT, OUT $OUT, work area $WORK, python $PY, $NPROC cores"

# ------------------------------------------------------------------------------------------------ 1. carried files
t0=$SECONDS
# PyCUDA's source archive and the wheels of its requirements (pycuda -> pytools, platformdirs, mako;
# pytools -> siphash24, typing_extensions; mako -> markupsafe), as fetch.sh saves them
NEEDED=(pytools platformdirs mako markupsafe typing_extensions siphash24)
find_one() {   # find_one PATTERN -> the one file in $WHEELS matching it (case-insensitive), "" if none, "MANY" if several
    local found
    found="$(find "$WHEELS" -maxdepth 1 -type f -iname "$1" 2>/dev/null | sort)"
    if [ -z "$found" ]; then echo ""; elif [ "$(echo "$found" | wc -l)" -gt 1 ]; then echo "MANY"; else echo "$found"; fi
}
MISSING=()
DEP_WHEELS=()
SDIST="$(find_one 'pycuda-*.tar.gz')"
PREBUILT="$(find_one 'pycuda-*-cp312-*.whl')"       # optional: a wheel an earlier device run built (its $OUT)
[ -z "$SDIST" ] && [ -z "$PREBUILT" ] && MISSING+=("PyCUDA's source archive (pycuda-*.tar.gz)")
[ "$SDIST" = "MANY" ] && MISSING+=("one pycuda-*.tar.gz (there are several: keep one version)")
[ "$PREBUILT" = "MANY" ] && MISSING+=("one prebuilt pycuda wheel (there are several: keep one version)")
for n in "${NEEDED[@]}"; do
    w="$(find_one "${n}-*.whl")"
    if [ -z "$w" ]; then MISSING+=("$n (a ${n}-*.whl)")
    elif [ "$w" = "MANY" ]; then MISSING+=("one ${n} wheel (there are several: keep one version)")
    else DEP_WHEELS+=("$w"); fi
done
if [ ${#MISSING[@]} -gt 0 ]; then
    if "$PY" -c "import pycuda.driver" >/dev/null 2>&1; then
        say "wheels: PyCUDA is already importable by $PY; the carried files are not needed"
        record "carried files" "ok" $((SECONDS - t0)) "PyCUDA already importable; $WHEELS not used"
        PYCUDA_READY=1
    else
        say "wheels: MISSING in $WHEELS: ${MISSING[*]}"
        say "wheels: run 'bash benchmarks/gpu/fetch.sh' where pip reaches PyPI, then name .whl in the device call's carry"
        record "carried files" "FAILED" $((SECONDS - t0)) "missing wheels in $WHEELS: run benchmarks/gpu/fetch.sh"
        exit 2
    fi
else
    PYCUDA_READY=0
    say "wheels: found ${SDIST:+$(basename "$SDIST")}${PREBUILT:+ $(basename "$PREBUILT")} and ${#DEP_WHEELS[@]} dependency wheels in $WHEELS"
    record "carried files" "ok" $((SECONDS - t0)) "$(du -sh "$WHEELS" | cut -f1) in $WHEELS"
fi

# ------------------------------------------------------------------------------------------------ 2. CPU-side imports
t0=$SECONDS
if PYTHONPATH="$ROOT" "$PY" - <<'EOF'
import platform, sys
import numpy, jinja2
import runtime, runtime.cuda as rc
from derive.emission import cuda as codegen_cuda
import benchmarks.bench_gpu  # noqa: F401  (the benchmark's module imports without a GPU)
print(f"run.sh: imports: python {platform.python_version()} ({sys.executable}), numpy {numpy.__version__}, "
      f"jinja2 {jinja2.__version__}; runtime.cuda.available(): {rc.available()}")
EOF
then record "CPU-side imports" "ok" $((SECONDS - t0)) "runtime, runtime.cuda, derive.emission.cuda, bench_gpu"
else record "CPU-side imports" "FAILED" $((SECONDS - t0)) "see run.log"; fi

# ------------------------------------------------------------------------------------------------ 3. GPU present?
GPU=0
GPU_WHY=""
ARCH="sm_90"                                         # the H100's and H200's; read from the device where there is one
if [ "$DRY_RUN" = 1 ]; then GPU_WHY="--dry-run"
elif ! command -v nvidia-smi >/dev/null 2>&1; then GPU_WHY="nvidia-smi is not on PATH"
elif ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then GPU_WHY="nvidia-smi lists no GPU"
else
    GPU=1
    cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')" || cap=""
    [ -n "$cap" ] && ARCH="sm_$cap"
fi

# ------------------------------------------------------------------------------------------------ 4. nvcc
t0=$SECONDS
NVCC="$(command -v nvcc || true)"
if [ "$NVCC_WHICH" = "none" ]; then
    record "nvcc generated/cuda" "skipped" 0 "--nvcc none"
elif [ "$GPU" = 1 ]; then
    record "nvcc generated/cuda" "skipped" 0 "on the GPU the cubin-cache step compiles them"
elif [ -z "$NVCC" ]; then
    record "nvcc generated/cuda" "skipped" 0 "nvcc not on PATH"
else
    if [ "$NVCC_WHICH" = "all" ]; then CUS=(generated/cuda/*.cu)
    else IFS=, read -r -a stems <<<"$NVCC_WHICH"; CUS=(); for s in "${stems[@]}"; do CUS+=("generated/cuda/$s.cu"); done; fi
    mkdir -p "$WORK/nvcc"
    say "nvcc: $("$NVCC" --version | tail -1); compiling ${#CUS[@]} file(s) for $ARCH, $NPROC at a time"
    rc=0
    printf '%s\n' "${CUS[@]}" | timeout "$(capped 300)" xargs -P "$NPROC" -I{} sh -c \
        'f="$1"; b=$(basename "$f" .cu); if "$2" -cubin -O3 -arch="$3" -o "$4/$b.cubin" "$f" 2>"$4/$b.err"; then echo "  ok      $f"; else echo "  FAILED  $f"; cat "$4/$b.err"; exit 1; fi' \
        _ {} "$NVCC" "$ARCH" "$WORK/nvcc" >"$OUT/nvcc.log" 2>&1 || rc=$?
    cat "$OUT/nvcc.log"
    if [ "$rc" = 0 ]; then record "nvcc generated/cuda" "ok" $((SECONDS - t0)) "${#CUS[@]} file(s) -> $ARCH cubins"
    else record "nvcc generated/cuda" "FAILED" $((SECONDS - t0)) "see nvcc.log"; fi
fi

if [ "$GPU" = 0 ] && [ "$BUILD_WITHOUT_GPU" = 0 ]; then
    say "no GPU ($GPU_WHY): stopped before the first step that needs a GPU (installing and building PyCUDA, nvidia-smi, the GPU tests, bench_gpu.py)"
    record "GPU steps" "stopped" 0 "no GPU: $GPU_WHY"
    exit "$FAILED"
fi

# ------------------------------------------------------------------------------------------------ 5. PyCUDA
build_from_sdist() {   # sets WHL to the wheel built from $SDIST, or returns 1 with the reason printed
    local log="$OUT/pycuda-build.log"
    # what the build needs: a C++ compiler, Python.h, numpy's headers, setuptools and wheel (no build isolation:
    # nothing can be fetched), CUDA's headers and a libcuda to link against (the toolkit's stub, or the driver's)
    local missing="" inc cuda_root libdir="${TR_LIBCUDA_DIR:-}" curand=False real src rc=0 t=$SECONDS
    command -v g++ >/dev/null 2>&1 || missing+=" g++"
    inc="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
    [ -f "$inc/Python.h" ] || missing+=" Python.h (in $inc)"
    "$PY" -c 'import numpy, setuptools, wheel' 2>/dev/null || missing+=" numpy/setuptools/wheel for $PY"
    cuda_root=""
    for c in "${CUDA_HOME:-}" "${CUDA_PATH:-}" "$(dirname "$(dirname "$(readlink -f "$(command -v nvcc || echo /nonexistent)")")")" \
             /usr/local/cuda; do
        if [ -n "$c" ] && [ -f "$c/include/cuda.h" ]; then cuda_root="$c"; break; fi
    done
    [ -n "$cuda_root" ] || missing+=" CUDA's include/cuda.h (CUDA_HOME, nvcc's folder, /usr/local/cuda)"
    if [ -z "$libdir" ]; then
        for d in "$cuda_root/lib64/stubs" "$cuda_root/targets/x86_64-linux/lib/stubs" "$cuda_root/lib/stubs"; do
            if [ -f "$d/libcuda.so" ]; then libdir="$d"; break; fi
        done
    fi
    if [ -z "$libdir" ]; then     # the driver's own library, through a libcuda.so link of our own
        real="$( (ldconfig -p 2>/dev/null | awk '/libcuda\.so(\.1)? /{print $NF}'
                  ls /usr/local/nvidia/lib64/libcuda.so* /usr/lib/x86_64-linux-gnu/libcuda.so* 2>/dev/null) | head -1)"
        if [ -n "$real" ]; then mkdir -p "$WORK/libcuda"; ln -sf "$real" "$WORK/libcuda/libcuda.so"; libdir="$WORK/libcuda"
        else missing+=" libcuda.so (no stub under $cuda_root, none in ldconfig; TR_LIBCUDA_DIR may name one)"; fi
    fi
    if ls "$cuda_root"/lib64/libcurand.so* "$cuda_root"/targets/x86_64-linux/lib/libcurand.so* >/dev/null 2>&1; then
        curand=True
    fi
    if [ -n "$missing" ]; then
        say "pycuda: cannot build PyCUDA from its source archive here, missing:$missing"
        return 1
    fi
    rm -rf "${WORK:?}/src" && mkdir -p "$WORK/src" "$WORK/wheelhouse"
    tar xzf "$SDIST" -C "$WORK/src"
    src="$(find "$WORK/src" -mindepth 1 -maxdepth 1 -type d | head -1)"
    printf '\n[build_ext]\nparallel = %s\n' "$NPROC" >>"$src/setup.cfg"    # compile its sources side by side
    {
        echo "CUDA_ROOT = \"$cuda_root\""
        echo "CUDA_ENABLE_CURAND = $curand"
        echo "CUDADRV_LIB_DIR = [\"$libdir\"]"
        echo "CUDART_LIB_DIR = [\"$cuda_root/lib64\", \"$cuda_root/targets/x86_64-linux/lib\"]"
        echo "CURAND_LIB_DIR = [\"$cuda_root/lib64\", \"$cuda_root/targets/x86_64-linux/lib\"]"
    } >"$src/siteconf.py"
    say "pycuda: building $(basename "$SDIST") (CUDA $cuda_root, libcuda from $libdir, curand $curand, $NPROC jobs; log $log)"
    (cd "$src" && timeout "$(capped 240)" "$PY" -m pip wheel -v --no-build-isolation --no-index --no-deps -w "$WORK/wheelhouse" .) \
        >"$log" 2>&1 || rc=$?
    if [ "$rc" != 0 ]; then
        say "pycuda: FAILED to build PyCUDA from $(basename "$SDIST") (status $rc after $((SECONDS - t)) s); from $log:"
        grep -iE 'error|fatal' "$log" | tail -15 || true
        tail -5 "$log"
        return 1
    fi
    WHL="$(find "$WORK/wheelhouse" -maxdepth 1 -name 'pycuda-*.whl' | head -1)"
    say "pycuda: built $(basename "$WHL") in $((SECONDS - t)) s"
    cp "$WHL" "$OUT/" || true      # comes back with $OUT: carried in .whl later, it stands in for this build
}

build_pycuda() {
    mkdir -p "$SITE"
    say "pycuda: installing ${#DEP_WHEELS[@]} wheels into $SITE"
    if ! "$PY" -m pip install -q --no-index --no-deps --no-compile --upgrade --target "$SITE" "${DEP_WHEELS[@]}"; then
        say "pycuda: FAILED to install the dependency wheels (fetch.sh saves them for CPython 3.12; $PY is $("$PY" -c 'import sys; print(sys.version.split()[0])'))"
        return 1
    fi
    WHL="$(find "$WORK/wheelhouse" -maxdepth 1 -name 'pycuda-*.whl' 2>/dev/null | head -1)"
    if [ -n "$WHL" ]; then
        say "pycuda: using $WHL, built by an earlier run on this machine"
    elif [ -n "$PREBUILT" ]; then       # the wheel an earlier device run built and returned in its $OUT
        WHL="$PREBUILT"
        say "pycuda: using the carried wheel $(basename "$WHL"), not building"
    elif [ -n "$SDIST" ] && build_from_sdist; then
        :
    else
        say "pycuda: FAILED: no PyCUDA; the wheel a device run builds comes back in its \$OUT: carried in .whl, it stands in for the build"
        return 1
    fi
    if ! "$PY" -m pip install -q --no-index --no-deps --no-compile --upgrade --target "$SITE" "$WHL"; then
        say "pycuda: FAILED to install $WHL"
        return 1
    fi
    if ! PYTHONPATH="$SITE" "$PY" -c 'import pycuda, pycuda.driver'; then
        say "pycuda: FAILED: the installed PyCUDA does not import"
        return 1
    fi
}

t0=$SECONDS
if [ "$PYCUDA_READY" = 1 ]; then
    record "PyCUDA" "ok" 0 "already importable"
elif build_pycuda; then
    export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
    record "PyCUDA" "ok" $((SECONDS - t0)) "installed into $SITE"
else
    record "PyCUDA" "FAILED" $((SECONDS - t0)) "see run.log and pycuda-build.log"
fi
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"

if [ "$GPU" = 0 ]; then
    say "no GPU ($GPU_WHY): after the PyCUDA step (--build-without-gpu), stopped before the first step that needs a GPU (nvidia-smi, the GPU tests, bench_gpu.py)"
    record "GPU steps" "stopped" 0 "no GPU: $GPU_WHY"
    exit "$FAILED"
fi

# ------------------------------------------------------------------------------------------------ 6. the device
t0=$SECONDS
nvidia-smi || true
"$PY" - <<'EOF' || true
import torch
print(f"torch {torch.__version__}, built for CUDA {torch.version.cuda}, cuda available: {torch.cuda.is_available()}")
if torch.cuda.is_available():
    p = torch.cuda.get_device_properties(0)
    print(f"  device 0: {p.name}, sm_{p.major}{p.minor}, {p.multi_processor_count} SMs, {p.total_memory / 2**30:.1f} GiB")
EOF
if "$PY" -c '
import pycuda, pycuda.driver as drv
drv.init()
d = drv.Device(0)
print(f"PyCUDA {pycuda.VERSION_TEXT} at {pycuda.__file__}: CUDA driver {drv.get_driver_version()}, built for {drv.get_version()}, device {d.name()}")
from runtime import cuda as rc
ok, why = rc.available()
print(f"runtime.cuda.available(): {ok} {why}")
raise SystemExit(0 if ok else 1)'; then
    record "device" "ok" $((SECONDS - t0)) "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $ARCH"
else
    record "device" "FAILED" $((SECONDS - t0)) "PyCUDA or runtime.cuda unusable: see run.log"
    # every step below would only skip or fail: keep the device time for a fixed rerun
    say "PyCUDA or the device is unusable: the cubin cache, the GPU tests and bench_gpu.py are not run"
    for s in "cubin cache" "GPU tests" "bench_gpu.py"; do record "$s" "not run" 0 "no usable PyCUDA/device"; done
    FAILED=1
    exit 1
fi

# ------------------------------------------------------------------------------------------------ 7. cubin cache
# compile generated/cuda/*.cu for this GPU through runtime.cuda.compile_cubin (PyCUDA's nvcc driver, the runtime's
# signed cache), side by side: the tests and the benchmark then load them from the cache instead of compiling
# them one after another
rc=0
step "cubin cache" 200 "$OUT/cubin-cache.log" "$PY" - "$ARCH" "$NPROC" <<'EOF' || rc=$?
import concurrent.futures as cf, sys, time
from runtime import cuda as rc
arch, jobs = sys.argv[1], int(sys.argv[2])
def one(path):
    t = time.perf_counter()
    rc.compile_cubin(path.read_text(), arch)
    return path.name, time.perf_counter() - t
with cf.ThreadPoolExecutor(jobs) as pool:
    for name, dt in pool.map(one, sorted(rc.GENERATED.glob("*.cu"))):
        print(f"  {name:<20} {dt:6.1f} s")
EOF
record "cubin cache" "$([ "$rc" = 0 ] && echo ok || echo FAILED)" "$LAST_DT" "generated/cuda/*.cu for $ARCH (cubin-cache.log)"

# ------------------------------------------------------------------------------------------------ 8. GPU tests
# every CUDA test that skips without a GPU: the "gpu" variants of tests/codegen/test_cuda*.py (each shipped op's
# kernels against its NumPy code at large extents, float32 and float64), and any test marked @pytest.mark.gpu
pytest_summary() { grep -E '^(=+ )?[0-9]+ (passed|failed|error|skipped|deselected)' "$1" | tail -1 | sed 's/=//g; s/^ *//; s/ *$//'; }
TESTS=(tests/codegen/test_cuda.py tests/codegen/test_cuda_*.py)
rc=0
# (TENSOR_RULES_NO_EMU: their module fixtures would otherwise build the CPU emulation of every kernel too)
step "GPU tests" 200 "$OUT/pytest-gpu.log" env TENSOR_RULES_NO_EMU=1 "$PY" -m pytest -rs -q -p no:cacheprovider "${TESTS[@]}" -k gpu || rc=$?
# a GPU test that skips here means PyCUDA or the device was unusable: that is a failure of this check
NOGPU="$({ grep -E 'SKIPPED.*no GPU run' "$OUT/pytest-gpu.log" || true; } | sed -nE 's/.*SKIPPED \[([0-9]+)\].*/\1/p' | awk '{n += $1} END {print n + 0}')"
if [ "$NOGPU" -gt 0 ]; then rc=1; fi
record "GPU tests" "$([ "$rc" = 0 ] && echo ok || echo FAILED)" "$LAST_DT" \
    "$(pytest_summary "$OUT/pytest-gpu.log")$([ "$NOGPU" -gt 0 ] && echo ", $NOGPU skipped for want of a GPU") (pytest-gpu.log)"
MARKED="$(grep -rlE 'pytest\.mark\.gpu\b' tests --include='test_*.py' 2>/dev/null || true)"
if [ -n "$MARKED" ]; then
    rc=0
    # shellcheck disable=SC2086
    step "marked gpu" 120 "$OUT/pytest-marked.log" "$PY" -m pytest -rs -q -p no:cacheprovider -m gpu $MARKED || rc=$?
    record "tests marked gpu" "$([ "$rc" = 0 ] && echo ok || echo FAILED)" "$LAST_DT" "$(pytest_summary "$OUT/pytest-marked.log") (pytest-marked.log)"
else
    record "tests marked gpu" "none" 0 "no test_*.py has @pytest.mark.gpu yet"
fi

# ------------------------------------------------------------------------------------------------ 9. benchmark
rc=0
BENCH_ARGS=()
[ "$QUICK" = 1 ] && BENCH_ARGS+=(--quick)
step "bench_gpu.py" 180 "$OUT/bench_gpu.txt" "$PY" benchmarks/bench_gpu.py "${BENCH_ARGS[@]}" || rc=$?
if [ "$rc" = 0 ] && grep -q "bench_gpu: skipped" "$OUT/bench_gpu.txt"; then rc=1; fi
record "bench_gpu.py" "$([ "$rc" = 0 ] && echo ok || echo FAILED)" "$LAST_DT" \
    "$([ "$QUICK" = 1 ] && echo '--quick, ' || echo 'full sizes, ')$(grep -c 'ratio' "$OUT/bench_gpu.txt" || true) rows (bench_gpu.txt)"
if [ -s "$OUT/bench_gpu.txt" ]; then
    echo
    echo "== bench_gpu.py rows"
    grep -E 'ratio|copy:|ours:' "$OUT/bench_gpu.txt" || true
fi
exit "$FAILED"
