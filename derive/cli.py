"""The `derive-rules` command: derive, verify and show rules; write generated/ atomically; --check staleness.

Exit codes: 0 all rules verified (and generated/ current with --check), 1 a rule failed verification or
generated/ is stale, 2 bad input (a malformed rule file, an unreadable path), 141 the reader of stdout went away
(`derive-rules --latex | head`): output stops quietly, with the status a shell gives a program SIGPIPE stopped.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from .fingerprint import engine_fingerprint

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"
GENERATED_DIR = ROOT / "generated"
CACHE_VERSION = "2"
EXIT_BROKEN_PIPE = 128 + 13  # 128 + SIGPIPE


def _valid_entry(out) -> bool:
    return (isinstance(out, dict) and isinstance(out.get("files"), dict) and isinstance(out.get("rules"), list)
            and isinstance(out.get("ok"), bool) and isinstance(out.get("module"), str)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in out["files"].items())
            and all(isinstance(r, dict) for r in out["rules"]))


def process_file(text: str, label: str, module: str, *, use_cache=True, bare_name=None, with_cuda=True) -> dict:
    """Derive + verify + render one rule file; the outcome is a JSON-able dict, cached by content hash.

    The cache ($TENSOR_RULES_CACHE/derive/<key>.json) is derive.trusted_cache's: owner-only, every entry signed
    and checked before use; an entry that does not verify or has the wrong shape is regenerated."""
    from . import trusted_cache

    parts = [CACHE_VERSION, engine_fingerprint(), label, module, str(bare_name), str(with_cuda), text]
    key = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    entry = f"{key}.json"
    if use_cache:
        try:
            payload = trusted_cache.read("derive", entry, key)
            out = json.loads(payload) if payload is not None else None
            if _valid_entry(out):
                return out
        except trusted_cache.UntrustedCache as exc:
            trusted_cache.warn_once(exc, "derive-rules")
            use_cache = False
        except ValueError:  # signed by us, yet not JSON: regenerate
            pass
    from . import api

    results = api.derive_text(text, label, bare_name=bare_name)
    doc = _file_doc(text)
    out = {
        "source": label,
        "module": module,
        "rules": [r.to_json() for r in results],
        "ok": all(r.ok for r in results),
        "files": {},
    }
    if out["ok"]:
        out["files"][f"{module}.py"] = api.render_module(results, label, doc=doc)
        if with_cuda:
            out["files"].update(_cuda_files(results, label))
    if use_cache and out["ok"]:
        try:
            trusted_cache.write("derive", entry, key, json.dumps(out).encode("utf-8"))
        except OSError:
            pass
        except trusted_cache.UntrustedCache as exc:
            trusted_cache.warn_once(exc, "derive-rules")
    return out


def _cuda_files(results, label):
    try:
        from .codegen_cuda import generate_cuda
    except ImportError:
        return {}
    return {f"cuda/{name}": text for name, text in generate_cuda(results, label).items()}


def _file_doc(text):
    from .lang import parser

    try:
        return parser.parse_file(text).doc
    except Exception:
        return ""


# -- presentation -------------------------------------------------------------------------------------------


def _form(stmt):
    return stmt["matrix_form"] or stmt["index_form"]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def print_table(outcomes, out=sys.stdout):
    rows = []
    for o in outcomes:
        for r in o["rules"]:
            v = r.get("verification") or {}
            err = max(v.get("fd_error", 0.0), v.get("adjoint_error", 0.0)) if v else float("nan")
            status = "ok" if r["verified"] else "FAILED"
            rows.append((r, status, err))
    for r, status, err in rows:
        print(f"{r['signature']}    [{r['source']}]", file=out)
        for k, s in enumerate(r["pushforward"]):
            print(f"  {'pushforward' if k == 0 else '           '}  {_form(s)}", file=out)
        for k, s in enumerate(r["pullback"]):
            print(f"  {'pullback   ' if k == 0 else '           '}  {_form(s)}", file=out)
        v = r.get("verification") or {}
        line = f"  check        {status}: finite differences {v.get('fd_error', float('nan')):.1e}, " \
               f"adjoint {v.get('adjoint_error', float('nan')):.1e}, {r['seconds'] * 1000:.0f} ms"
        print(line, file=out)
        for p in v.get("problems", []):
            print(f"               {p}", file=out)
        if r.get("error"):
            print(f"               {r['error']}", file=out)
        print(file=out)
    n_bad = sum(1 for _, s, _ in rows if s != "ok")
    print(f"{_count(len(rows), 'rule')}, {len(rows) - n_bad} verified, {n_bad} failed", file=out)


def print_latex(outcomes, out=sys.stdout):
    for o in outcomes:
        for r in o["rules"]:
            print(f"% {r['signature']}  ({r['source']})", file=out)
            print("\\begin{aligned}", file=out)
            lines = [s["latex"] for s in r["pushforward"]] + [s["latex"] for s in r["pullback"]]
            print(" \\\\\n".join("  " + l.replace(" = ", " &= ", 1) for l in lines), file=out)
            print("\\end{aligned}\n", file=out)


# -- writing generated/ -------------------------------------------------------------------------------------


def init_source(modules, exports) -> str:
    lines = ["# @generated by `derive-rules` from rules/*.rules -- do not edit by hand.",
             '"""The shipped ops: forward functions, frules and rrules derived from rules/*.rules."""']
    names = []
    for m in modules:
        ex = exports[m]
        lines.append(f"from .{m} import (  # noqa: F401")
        for e in ex:
            lines.append(f"    {e},")
        lines.append(")")
        names.extend(ex)
    lines.append("")
    lines.append(f"MODULES = {tuple(modules)!r}")
    lines.append("__all__ = [")
    for n in names:
        lines.append(f"    {n!r},")
    lines.append("]")
    return "\n".join(lines) + "\n"


def planned_files(outcomes, with_init=True) -> dict:
    files = {}
    exports = {}
    for o in outcomes:
        files.update(o["files"])
        ex = []
        for r in o["rules"]:
            ex += [r["name"], f"{r['name']}_frule", f"{r['name']}_rrule"]
        exports[o["module"]] = ex
    if with_init:
        files["__init__.py"] = init_source([o["module"] for o in outcomes], exports)
    return files


def stale_files(files: dict, out_dir: Path, managed_suffixes=(".py", ".cu", ".json")):
    """Files that would change, appear or disappear if we wrote `files` into out_dir."""
    diff = []
    for name, text in sorted(files.items()):
        p = out_dir / name
        if not p.exists() or p.read_text() != text:
            diff.append(name)
    if out_dir.exists():
        for p in sorted(out_dir.rglob("*")):
            rel = p.relative_to(out_dir).as_posix()
            if p.is_file() and p.suffix in managed_suffixes and "__pycache__" not in rel and rel not in files:
                diff.append(rel + " (would be removed)")
    return diff


def write_atomically(files: dict, out_dir: Path, remove_stale=True):
    """Write every file to a temporary sibling first, then swap them in with signals held off,
    so an interrupt leaves the old set or the new set, never a mix or a truncated file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    staged = []
    for name, text in sorted(files.items()):
        target = out_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists() and target.read_text() == text:
            continue
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        staged.append((tmp, target))
    stale = []
    if remove_stale:
        for p in out_dir.rglob("*"):
            rel = p.relative_to(out_dir).as_posix()
            if p.is_file() and p.suffix in (".py", ".cu", ".json") and "__pycache__" not in rel \
                    and not p.name.startswith(".tmp-") and rel not in files:
                stale.append(p)
    held = [signal.SIGINT, signal.SIGTERM]
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held) if hasattr(signal, "pthread_sigmask") else None
    try:
        for tmp, target in staged:
            os.replace(tmp, target)
        for p in stale:
            p.unlink()
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return [t.relative_to(out_dir).as_posix() for _, t in staged] + [f"{p.name} (removed)" for p in stale]


# -- main -----------------------------------------------------------------------------------------------------


def build_parser():
    ap = argparse.ArgumentParser(
        prog="derive-rules",
        description="Derive, verify and generate code for tensor rules written in index notation.")
    ap.add_argument("files", nargs="*", help="rule files (default: the shipped library in rules/)")
    ap.add_argument("-e", "--expr", action="append", default=[], metavar="EXPR",
                    help='derive one expression, e.g. -e "B = inv(A)" (inputs and outputs inferred)')
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    ap.add_argument("--latex", action="store_true", help="print the derived rules in LaTeX")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if a rule fails verification or generated/ (or --out) would change; write nothing")
    ap.add_argument("--out", metavar="DIR", help="write importable modules (and .cu) for the rule files into DIR")
    ap.add_argument("--no-write", action="store_true", help="derive and verify the shipped library only")
    ap.add_argument("--no-cache", action="store_true", help="ignore the on-disk cache of derived rules")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")
    return ap


def main(argv=None) -> int:
    try:
        status = _main(argv)
        sys.stdout.flush()  # a closed pipe surfaces here, inside the handler, not at exit as a traceback
        return status
    except BrokenPipeError:
        # Python flushes stdout once more at exit: send what is left to /dev/null so that flush succeeds too
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is no file (captured in-process): nothing is flushed at exit
            pass
        return EXIT_BROKEN_PIPE


def _main(argv) -> int:
    args = build_parser().parse_args(argv)
    from .errors import DeriveError

    t0 = time.perf_counter()
    outcomes = []
    shipped = not args.files and not args.expr
    try:
        sources = []
        if shipped:
            sources = [(p.read_text(), f"rules/{p.name}", p.stem, None) for p in sorted(RULES_DIR.glob("*.rules"))]
            if not sources:
                print(f"derive-rules: no rule files in {RULES_DIR}", file=sys.stderr)
                return 2
        for f in args.files:
            p = Path(f)
            try:
                text = p.read_text()
            except OSError as exc:
                print(f"derive-rules: cannot read {f}: {exc.strerror}", file=sys.stderr)
                return 2
            module = p.stem.replace("-", "_")
            if not module.isidentifier():
                module = "rules_" + "".join(ch if ch.isalnum() else "_" for ch in module)
            sources.append((text, f, module, None))
        for k, e in enumerate(args.expr):
            sources.append((e, "<expr>", f"expr{k}" if len(args.expr) > 1 else "expr", "expr"))
        for text, label, module, bare in sources:
            outcomes.append(process_file(text, label, module, use_cache=not args.no_cache, bare_name=bare,
                                         with_cuda=bool(shipped or args.out)))
    except DeriveError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("derive-rules: interrupted; nothing was written", file=sys.stderr)
        return 130

    ok = all(o["ok"] for o in outcomes)
    out_dir = Path(args.out) if args.out else (GENERATED_DIR if shipped and not args.no_write else None)
    stale = []
    if out_dir is not None and ok:
        files = planned_files(outcomes, with_init=shipped and out_dir == GENERATED_DIR)
        if args.check:
            stale = stale_files(files, out_dir)
        else:
            written = write_atomically(files, out_dir, remove_stale=(out_dir == GENERATED_DIR))
            if not args.quiet and not args.json and written:
                print(f"wrote {_count(len(written), 'file')} in {out_dir}", file=sys.stderr)

    if args.json:
        print(json.dumps([r for o in outcomes for r in o["rules"]], indent=2, ensure_ascii=False))
    elif args.latex:
        print_latex(outcomes)
    elif not args.quiet:
        print_table(outcomes)
    if args.quiet:
        n = sum(len(o["rules"]) for o in outcomes)
        bad = sum(1 for o in outcomes for r in o["rules"] if not r["verified"])
        print(f"{_count(n, 'rule')}, {n - bad} verified, {bad} failed ({time.perf_counter() - t0:.2f} s)")
    if stale:
        print(f"derive-rules --check: {out_dir} is stale; run `derive-rules` to regenerate:", file=sys.stderr)
        for s in stale:
            print(f"  {s}", file=sys.stderr)
        return 1
    if not ok:
        print("derive-rules: some rules failed verification; nothing was written", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
