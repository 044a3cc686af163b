"""The `derive-rules` command: derive, verify and show rules; write generated/ atomically; --check staleness.

Exit codes: 0 all rules verified (and generated/ current with --check), 1 a rule failed verification or
generated/ is stale, 2 bad input (a malformed rule file, an unreadable path), 141 the reader of stdout went away
(`derive-rules --latex | head`): output stops quietly, with the status a shell gives a program SIGPIPE stopped,
130 interrupted (SIGINT) and 143 terminated (SIGTERM): one line says whether the output was switched, and no
temporary file is left behind.
"""
from __future__ import annotations

import json
import sys

try:  # Ctrl-C while the command itself is still being imported: the same one line and 130 as later
    import argparse
    import hashlib
    import json
    import os
    import signal
    import tempfile
    import time
    from pathlib import Path

    from derive.fingerprint import engine_fingerprint
except KeyboardInterrupt:
    sys.stderr.write("derive-rules: interrupted; nothing was written\n")
    raise SystemExit(130) from None

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

    The cache ($TENSOR_RULES_CACHE/derive/<key>.json) is runtime.trusted_cache's: owner-only, every entry signed
    and checked before use; an entry that does not verify or has the wrong shape is regenerated."""
    from runtime import trusted_cache

    # whether the native kernels are checked here (verify_native needs a compiler, and TENSOR_RULES_NATIVE=0 turns
    # it off) is part of the key: an outcome whose plan went unchecked must never answer a run that checks it
    parts = [CACHE_VERSION, engine_fingerprint(), label, module, str(bare_name), str(with_cuda),
             f"native-checked={with_cuda and _native_checkable()}", text]
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
    from derive import api

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
            out["files"].update(_cpu_files(results, label, out["files"][f"{module}.py"]))
            _check_native(out, label)
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
        from derive.emission.cuda import generate_cuda
    except ImportError:
        return {}
    return {f"cuda/{name}": text for name, text in generate_cuda(results, label).items()}


def _cpu_files(results, label, module_text):
    from derive.emission.cpp import generate_cpu

    return {f"cpu/{name}": text for name, text in generate_cpu(results, label, module_text=module_text).items()}


def _native_checkable() -> bool:
    """Whether _check_native can run the native kernels here (derive.verification.native.check's own condition)."""
    from runtime import native

    return native.available()[0]


def _check_native(out, label):
    """Run the native plan against the verified NumPy code (derive.verification.native). An op whose kernels disagree is
    left out of the CPU plan and the CUDA plan (the planner printed both from one plan; on a GPU the same mistake
    would go unseen here), with a warning: the rule is right and its verified NumPy code runs. Only an exception
    from the check itself fails the rule. (tests/derive/test_native_plans.py holds every shipped op to its kernels.)"""
    from derive.verification import native as verify_native

    found = verify_native.check(out["files"][f"{out['module']}.py"], out["files"], label)
    dropped = {}
    for rule in out["rules"]:
        if rule["name"] not in found:
            continue
        err, problems = found[rule["name"]]
        v = rule.setdefault("verification", {})
        v["native_error"] = err
        if problems:
            why = f"{NATIVE_LEFT_OUT}: {problems[0]}"
            dropped[rule["name"]] = why
            v.setdefault("warnings", []).append(f"{why}; the verified NumPy code runs instead")
    if dropped:
        _leave_out(out["files"], dropped)


NATIVE_LEFT_OUT = "native kernels disagree with the verified NumPy code, left out"


def _leave_out(files, dropped):
    """Take the ops in `dropped` ({name: why}) out of the cpu/ and cuda/ plans among `files` (their kernels stay in
    the source, never called); a CPU plan left with no op is not written."""
    for name in list(files):
        if not name.endswith(".json") or not name.startswith(("cpu/", "cuda/")):
            continue
        manifest = json.loads(files[name])
        gone = {op: why for op, why in dropped.items() if op in manifest["ops"]}
        if not gone:
            continue
        for op, why in gone.items():
            del manifest["ops"][op]
            manifest["numpy_only" if name.startswith("cpu/") else "unsupported"][op] = why
        if name.startswith("cpu/") and not manifest["ops"]:
            del files[name], files[name[:-len(".json")] + ".cpp"]
            continue
        files[name] = json.dumps(manifest, indent=1) + "\n"


def _file_doc(text):
    from derive.language import parser

    try:
        return parser.parse_file(text).doc
    except Exception:
        return ""


# -- presentation -------------------------------------------------------------------------------------------


def _reference(v) -> str:
    """The check line's reference figure: the worst error, or that the text's value was never compared."""
    if v.get("reference_points", 1) == 0:
        return "reference not compared"
    return f"reference {v.get('reference_error', float('nan')):.1e}"


def _form(stmt):
    return stmt["matrix_form"] or stmt["index_form"]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def print_table(outcomes, out=None):
    out = out or sys.stdout  # looked up per call: a default bound at import would outlive a redirection
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
        extents = "; ".join(" ".join(f"{k}={n}" for k, n in e.items()) for e in v.get("extents", []) if e)
        line = f"  check        {status}: finite differences {v.get('fd_error', float('nan')):.1e}, " \
               f"adjoint {v.get('adjoint_error', float('nan')):.1e}, " \
               f"{_reference(v)}, " \
               f"{f'extents {extents}, ' if extents else ''}{r['seconds'] * 1000:.0f} ms"
        if v.get("points", 1) == 0:
            line = f"  check        {status}: no point could be checked, {r['seconds'] * 1000:.0f} ms"
        print(line, file=out)
        for p in v.get("problems", []):
            print(f"               {p}", file=out)
        for w in v.get("warnings", []):
            print(f"               warning: {w}", file=out)
        if r.get("error"):
            print(f"               {r['error']}", file=out)
        print(file=out)
    n_bad = sum(1 for _, s, _ in rows if s != "ok")
    print(f"{_count(len(rows), 'rule')}, {len(rows) - n_bad} verified, {n_bad} failed", file=out)


def print_latex(outcomes, out=None):
    out = out or sys.stdout
    from derive.display.notation import latex_name
    from derive.emission.safe_text import comment_text
    from derive.language import domains

    for o in outcomes:
        for r in o["rules"]:  # a file name may hold a newline: it must not end the comment
            print(f"% {comment_text(r['signature'] + '  (' + r['source'] + ')')}", file=out)
            print("\\begin{aligned}", file=out)
            rows = []
            for which in ("pushforward", "pullback"):   # labelled: a name like dμ is assigned in both
                rows.append(f"  &\\text{{{which}}}")
                rows += ["  " + s["latex"].replace(" = ", " &= ", 1) for s in r[which]]
            declared = [domains.latex(latex_name(i["name"]), i["domain"]) for i in r["inputs"]
                        if i.get("domain_declared")]
            if declared:      # the domain the rule is derived and verified on, as a last row
                rows.append("  &\\text{for } " + ",\\ ".join(declared))
            print(" \\\\\n".join(rows), file=out)
            print("\\end{aligned}\n", file=out)


# -- writing generated/ -------------------------------------------------------------------------------------


def init_source(modules, exports) -> str:
    lines = ["# @generated by `derive-rules` from rules/*.rules -- do not edit by hand.",
             '"""The shipped ops: forward functions, frules and rrules derived from rules/*.rules."""',
             "import os as _os",
             "",
             f"if _os.path.exists(_os.path.join(_os.path.dirname(__file__), {JOURNAL!r})):",
             '    raise ImportError(f"{_os.path.dirname(__file__)} is half-updated: a derive-rules run was stopped while "',
             '                      "switching its files; run derive-rules again to finish")',
             ""]
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


MANAGED_SUFFIXES = (".py", ".cu", ".cpp", ".json", ".html")
JOURNAL = ".derive-rules-swap"  # present from the first rename of a swap to the last: the set is half-switched
_SWAPPED: list = []             # output directories this process has switched to a new set


class OutputConflict(Exception):
    """--out would overwrite a file that derive-rules did not write for the same source."""


def _banner(text: str, name: str):
    """What says who wrote a file: the first line of a .py/.cu (`# @generated from SOURCE by ...`), the
    "generated_from" of a .json plan. None for anything else."""
    if name.endswith(".json"):
        try:
            doc = json.loads(text)
        except ValueError:
            return None
        return doc.get("generated_from") if isinstance(doc, dict) else None
    if name.endswith(".html"):   # a report page: the banner comment follows the doctype (derive.display.report)
        lines = text.split("\n", 2)
        return lines[1] if len(lines) > 1 and lines[1].startswith("<!-- @generated ") else None
    first = text.split("\n", 1)[0]
    return first if first.startswith(("# @generated ", "// @generated ")) else None


def _read(path: Path):
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _ours(path: Path, new_text: str, name: str) -> bool:
    """An existing file we may replace: it carries the banner the new file carries (same source, same command)."""
    old = _read(path)
    return old is not None and _banner(old, name) is not None and _banner(old, name) == _banner(new_text, name)


def _shipped_output(path: Path) -> bool:
    """A file the shipped library's run wrote (its banner names a file under rules/): the only kind ever removed."""
    text = _read(path)
    b = _banner(text, path.name) if text is not None else None
    return b is not None and (b.startswith(("rules/", "# @generated from rules/", "// @generated from rules/",
                                            "# @generated by `derive-rules` from rules/")))


def _managed(out_dir: Path):
    if not out_dir.exists():
        return
    for p in sorted(out_dir.rglob("*")):
        rel = p.relative_to(out_dir).as_posix()
        if p.is_file() and p.suffix in MANAGED_SUFFIXES and "__pycache__" not in rel and not p.name.startswith("."):
            yield p, rel


def stale_files(files: dict, out_dir: Path, remove_stale=False):
    """Files that would change, appear or (for the shipped library) disappear if we wrote `files` into out_dir."""
    diff = []
    for name, text in sorted(files.items()):
        p = out_dir / name
        if _read(p) != text:
            diff.append(name)
    if remove_stale:
        for p, rel in _managed(out_dir):
            if rel not in files and _shipped_output(p):
                diff.append(rel + " (would be removed)")
    return diff


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync_dir(d: Path):
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _inside(out_dir: Path, rel) -> bool:
    """`rel` names a path inside out_dir: relative, no '..', no symlinked directory on the way out."""
    if not isinstance(rel, str) or not rel or "\0" in rel:
        return False
    r = Path(rel)
    if r.is_absolute() or ".." in r.parts:
        return False
    base = out_dir.resolve()
    return (out_dir / r).parent.resolve() == base or base in (out_dir / r).parent.resolve().parents


def _journalled_move_is_ours(out_dir: Path, tmp, target) -> bool:
    """A rename a journal asks for is done only if it is one write_atomically stages: a '.tmp-' file carrying
    derive-rules' banner, onto a managed name that is absent or also carries a banner. A journal is input like
    any file in the directory (it may come with a cloned repository): it must not move a file over one the user
    wrote, or anywhere outside out_dir."""
    if not (_inside(out_dir, tmp) and _inside(out_dir, target)):
        return False
    src, dst = out_dir / tmp, out_dir / target
    if not src.name.startswith(".tmp-") or dst.suffix not in MANAGED_SUFFIXES or dst.name.startswith("."):
        return False
    if src.is_symlink() or not src.is_file() or dst.is_symlink() or (dst.exists() and not dst.is_file()):
        return False
    new = _read(src)
    if new is None or _banner(new, dst.name) is None:
        return False
    if not dst.exists():
        return True
    old = _read(dst)
    return old is not None and _banner(old, dst.name) is not None


def finish_interrupted_swap(out_dir: Path, staged=()) -> bool:
    """Complete a swap a killed run left half-done (its journal lists every staged file): roll forward, so the
    directory holds the new set. Returns True when there was one. `staged`: the (tmp, target) moves this process
    staged itself (write_atomically); any other move must pass _journalled_move_is_ours."""
    journal = out_dir / JOURNAL
    text = _read(journal)
    if text is None:
        return False
    try:
        plan = json.loads(text)
        moves, removals = plan["moves"], plan["removals"]
    except (ValueError, KeyError, TypeError):
        moves, removals = [], []   # a torn journal: written before any rename, so nothing was switched
    for tmp, target in moves:
        if [tmp, target] in staged or _journalled_move_is_ours(out_dir, tmp, target):
            os.replace(out_dir / tmp, out_dir / target)
    for rel in removals:
        p = out_dir / rel if _inside(out_dir, rel) else None
        if p is not None and p.is_file() and not p.is_symlink() and _shipped_output(p):
            p.unlink()
    journal.unlink()
    _fsync_dir(out_dir)
    return True


def write_atomically(files: dict, out_dir: Path, remove_stale=False):
    """Switch out_dir to the new set of files all at once, replacing only what derive-rules wrote there.

    Every file is staged beside its target first (mode from the umask, fsynced); then a journal listing the
    renames is written, the renames are done with SIGINT/SIGTERM held off, and the journal is removed. A run
    killed mid-swap leaves the journal: the next run finishes the swap first, and `generated/__init__.py`
    refuses to import while it is there, so no reader uses a mix of old and new modules. A file that exists and
    was not written by derive-rules for the same source is never replaced (OutputConflict, nothing written);
    with remove_stale (the shipped library only) files that run wrote and no longer produces are removed,
    nothing else."""
    out_dir.mkdir(parents=True, exist_ok=True)
    finish_interrupted_swap(out_dir)
    changed = []
    for name, text in sorted(files.items()):
        if Path(name).is_absolute() or ".." in Path(name).parts:
            raise OutputConflict(f"refusing to write {name!r} outside {out_dir}")
        target = out_dir / name
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise OutputConflict(f"{target} is not a regular file; not replacing it")
        if target.exists():
            old = _read(target)
            if old == text:
                continue
            if not _ours(target, text, name):
                raise OutputConflict(f"{target} exists and was not written by derive-rules from the same source; "
                                     f"not replacing it (move it away or choose another --out)")
        changed.append((name, text))
    stale = [rel for p, rel in _managed(out_dir) if rel not in files and _shipped_output(p)] if remove_stale else []
    if not changed and not stale:
        return []
    mode = 0o666 & ~_umask()
    staged = []
    try:
        for name, text in changed:
            target = out_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
            staged.append((tmp, target))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                os.fchmod(f.fileno(), mode)
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        # __init__.py last: the package's import runs it, and it checks the journal
        staged.sort(key=lambda st: st[1].name == "__init__.py")
        plan = {"moves": [[Path(os.path.relpath(t, out_dir)).as_posix(), Path(os.path.relpath(g, out_dir)).as_posix()]
                          for t, g in staged], "removals": stale}
        fd, jtmp = tempfile.mkstemp(prefix=".tmp-", dir=out_dir)
        with os.fdopen(fd, "w") as f:
            json.dump(plan, f)
            f.flush()
            os.fsync(f.fileno())
        for d in {g.parent for _, g in staged} | {out_dir}:
            _fsync_dir(d)
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        if "jtmp" in locals():
            Path(jtmp).unlink(missing_ok=True)
        raise
    held = [signal.SIGINT, signal.SIGTERM]
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held) if hasattr(signal, "pthread_sigmask") else None
    try:
        os.replace(jtmp, out_dir / JOURNAL)   # from here on the swap is committed: a rerun rolls it forward
        _SWAPPED.append(out_dir)              # for the message of an interrupt that lands when the mask lifts
        finish_interrupted_swap(out_dir, staged=plan["moves"])
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return [g.relative_to(out_dir).as_posix() for _, g in staged] + [f"{rel} (removed)" for rel in stale]


# -- main -----------------------------------------------------------------------------------------------------


def build_parser():
    ap = argparse.ArgumentParser(
        prog="derive-rules",
        description="Derive, verify and generate code for tensor rules written in index notation.")
    ap.add_argument("files", nargs="*", help="rule files (default: the shipped library in rules/)")
    ap.add_argument("-e", "--expr", action="append", default=[], metavar="EXPR",
                    help='derive one expression, e.g. -e "B = inv(A)" (inputs and outputs inferred), or one '
                         'rule with its header')
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    ap.add_argument("--latex", action="store_true", help="print the derived rules in LaTeX")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if a rule fails verification or generated/ (or --out) would change; write nothing")
    ap.add_argument("--out", metavar="DIR", help="write importable modules (and .cu) for the rule files into DIR")
    ap.add_argument("--no-write", action="store_true", help="derive and verify the shipped library only")
    ap.add_argument("--report", metavar="DIR",
                    help="write a static HTML report (an index and a page per rule, formulas in MathML) into DIR")
    ap.add_argument("--no-cache", action="store_true", help="ignore the on-disk cache of derived rules")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")
    return ap


def main(argv=None) -> int:
    """The command. Whatever happens, a user sees a message and an exit code, never a traceback: SIGINT at any
    moment (imports, deriving, rendering, writing, printing) exits 130 saying whether the output was switched."""
    if argv_is_script():  # SIGTERM takes Ctrl-C's path: staged files are removed, one line, exit 143
        signal.signal(signal.SIGTERM, _terminate)
    try:
        try:
            status = _main(argv)
            sys.stdout.flush()  # a closed pipe surfaces here, inside the handler, not at exit as a traceback
            if argv_is_script():  # the work is done: a late Ctrl-C must not turn exit into a KeyboardInterrupt
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            return status
        except BrokenPipeError:
            # Python flushes stdout once more at exit: send what is left to /dev/null so that flush succeeds too
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):  # stdout is no file (captured in-process): nothing is flushed at exit
                pass
            return EXIT_BROKEN_PIPE
    except Terminated:
        return _interrupted("terminated", 128 + signal.SIGTERM)
    except KeyboardInterrupt:
        return _interrupted()
    except RuntimeError as exc:
        # Python wraps what a signal raises in some places (a class body's __set_name__, as a dataclass being
        # created while a module imports): "Error calling __set_name__ ..." from the KeyboardInterrupt
        cause = _interrupt_in(exc)
        if cause is None:
            raise
        return _interrupted("terminated", 128 + signal.SIGTERM) if isinstance(cause, Terminated) else _interrupted()


def _interrupt_in(exc):
    """The KeyboardInterrupt (or Terminated) an exception was raised from, if any, following __cause__ and
    __context__."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that it unwinds like Ctrl-C (no temporary file is left)."""


def _terminate(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated()


def _interrupted(how="interrupted", code=130) -> int:
    script = argv_is_script()
    if script:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the message itself
    msg = (f"derive-rules: {how}; {_SWAPPED[-1]} holds the new files" if _SWAPPED
           else f"derive-rules: {how}; nothing was written")
    try:
        print(msg, file=sys.stderr)
        sys.stderr.flush()
    except (OSError, ValueError, KeyboardInterrupt):
        pass
    if script:  # stdout may hold half a table: drop it rather than fail flushing it at exit
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
    return code


def argv_is_script() -> bool:
    """Running as the command (not called in-process by tests or a notebook): only then is SIGINT ours to ignore."""
    main_mod = sys.modules.get("__main__")
    return getattr(main_mod, "__spec__", None) is not None and main_mod.__spec__.name == __name__ or \
        os.path.basename(sys.argv[0] or "") == "derive-rules"


def read_rule_file(path: Path, shown: str) -> str:
    """The text of a rule file: UTF-8, with or without a byte-order mark. Raises DeriveError naming the file and
    the byte where decoding fails (latin-1, UTF-16, stray bytes), and OSError when it cannot be read."""
    from derive.language.errors import DeriveError

    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        hint = " (it looks like UTF-16)" if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:64] else ""
        raise DeriveError(f"{shown}:{line}:{col}: error: not UTF-8 text{hint}: byte 0x{data[exc.start]:02x} at "
                          f"offset {exc.start} cannot be decoded; save the file as UTF-8") from None


# Top-level modules a generated module's import goes through (the runtime, NumPy, the standard library) or that
# the runtime imports by name later (`generated`): a module of that name in --out would shadow them for whoever
# imports from that directory, and `numpy.rules` or `random.rules` would give a module that cannot be imported.
_SHADOWED = frozenset({"runtime", "generated", "derive", "numpy"}) | frozenset(
    getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names)


def module_name_for(path: Path) -> str:
    """The Python module a rule file becomes: its stem when that is a plain ASCII identifier (not a keyword, a
    dunder such as __init__, nor the name of a module the generated code imports: numpy, runtime, random...),
    else `rules_` and the stem with other characters as '_'."""
    import keyword

    m = path.stem.replace("-", "_")
    plain = (m.isascii() and m.isidentifier() and not keyword.iskeyword(m) and not m.startswith("__")
             and m not in _SHADOWED)
    return m if plain else "rules_" + "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in m)


def _main(argv) -> int:
    args = build_parser().parse_args(argv)
    from derive.language.errors import DeriveError

    t0 = time.perf_counter()
    outcomes = []
    shipped = not args.files and not args.expr
    try:
        sources = []
        if shipped:
            sources = [(read_rule_file(p, f"rules/{p.name}"), f"rules/{p.name}", p.stem, None)
                       for p in sorted(RULES_DIR.glob("*.rules"))]
            if not sources:
                print(f"derive-rules: no rule files in {RULES_DIR}", file=sys.stderr)
                return 2
        modules: dict = {}
        for f in args.files:
            p = Path(f)
            try:
                text = read_rule_file(p, f)
            except OSError as exc:
                print(f"derive-rules: cannot read {f}: {exc.strerror}", file=sys.stderr)
                return 2
            module = module_name_for(p)
            if module in modules and args.out:
                print(f"derive-rules: {modules[module]} and {f} would both become {module}.py; rename one",
                      file=sys.stderr)
                return 2
            modules[module] = f
            sources.append((text, f, module, None))
        for k, e in enumerate(args.expr):
            from derive.language.parser import starts_with_header

            # a whole rule (`-e "r(x[i]: positive) -> y[i] = log(x[i])"`) keeps its header and domains
            bare = None if starts_with_header(e, "<expr>") else "expr"
            sources.append((e, "<expr>", f"expr{k}" if len(args.expr) > 1 else "expr", bare))
        for text, label, module, bare in sources:
            outcomes.append(process_file(text, label, module, use_cache=not args.no_cache, bare_name=bare,
                                         with_cuda=bool(shipped or args.out)))
    except DeriveError as exc:
        print(str(exc), file=sys.stderr)
        return 2

    ok = all(o["ok"] for o in outcomes)
    out_dir = Path(args.out) if args.out else (GENERATED_DIR if shipped and not args.no_write else None)
    # the shipped library's own run owns generated/ whole (its __init__, stale modules); any other run adds files
    library = shipped and out_dir is not None and out_dir.resolve() == GENERATED_DIR.resolve()
    stale = []
    if out_dir is not None and ok:
        files = planned_files(outcomes, with_init=library)
        if args.check:
            stale = stale_files(files, out_dir, remove_stale=library)
        else:
            try:
                written = write_atomically(files, out_dir, remove_stale=library)
            except OutputConflict as exc:
                print(f"derive-rules: {exc}; nothing was written", file=sys.stderr)
                return 2
            except OSError as exc:
                print(f"derive-rules: cannot write {out_dir}: {exc}", file=sys.stderr)
                return 2
            if not args.quiet and not args.json and written:
                print(f"wrote {_count(len(written), 'file')} in {out_dir}", file=sys.stderr)

    if args.report and not args.check:    # failed rules too: the report says what failed and why
        from derive.display import report

        try:
            written = write_atomically(report.render(outcomes), Path(args.report))
        except OutputConflict as exc:
            print(f"derive-rules: {exc}; no report was written", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"derive-rules: cannot write the report into {args.report}: {exc}", file=sys.stderr)
            return 2
        if not args.quiet and not args.json:
            print(f"wrote the report in {args.report} ({_count(len(written), 'file')} changed)", file=sys.stderr)

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
