"""The `derive-rules` command: derive, verify and show rules; write generated/ atomically; --check staleness.

Exit codes: 0 all rules verified (and generated/ current with --check), 1 a rule failed verification or
generated/ is stale, 2 bad input (a malformed rule file, an unreadable path), 141 the reader of stdout went away
(`derive-rules --latex | head`): output stops quietly, with the status a shell gives a program SIGPIPE stopped,
130 interrupted (SIGINT) and 143 terminated (SIGTERM): one line says whether the output was switched, and no
temporary file is left behind.
"""
from __future__ import annotations

import os
import signal
import sys


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that it unwinds like Ctrl-C (no temporary file is left)."""


def _terminate(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated()


def argv_is_script() -> bool:
    """Running as the command (not called in-process by tests or a notebook): only then is SIGINT ours to ignore."""
    main_mod = sys.modules.get("__main__")
    # `python -m derive.cli` runs this file as __main__: its spec still names derive.cli
    return getattr(main_mod, "__spec__", None) is not None and main_mod.__spec__.name == "derive.cli" or \
        os.path.basename(sys.argv[0] or "") == "derive-rules"


if argv_is_script():  # SIGTERM takes Ctrl-C's path from the start, while the engine (SymPy) is still importing
    signal.signal(signal.SIGTERM, _terminate)

try:  # a signal while the command itself is still being imported: the same one line and exit code as later
    import argparse
    import json
    import time
    from pathlib import Path

    from derive import outcome_cache, output, progress
    from derive.emission.safe_text import comment_text
    from derive.language.errors import DeriveError
    from derive.language.parser import starts_with_header
    from derive.output import OutputConflict, planned_files, stale_files, write_atomically
    from runtime import artefacts, trusted_cache
except KeyboardInterrupt as _exc:
    _how, _code = ("terminated", 128 + signal.SIGTERM) if isinstance(_exc, Terminated) else ("interrupted", 130)
    sys.stderr.write(f"derive-rules: {_how}; nothing was written\n")
    raise SystemExit(_code) from None

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"
GENERATED_DIR = ROOT / "generated"
EXIT_BROKEN_PIPE = 128 + 13  # 128 + SIGPIPE


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
    for o in outcomes:
        for r in o["rules"]:  # a file name may hold a newline: it must not end the comment
            print(f"% {comment_text(r['signature'] + '  (' + r['source'] + ')')}", file=out)
            print("\\begin{aligned}", file=out)
            rows = []
            for which in ("pushforward", "pullback"):   # labelled: a name like dμ is assigned in both
                rows.append(f"  &\\text{{{which}}}")
                rows += ["  " + s["latex"].replace(" = ", " &= ", 1) for s in r[which]]
            if r.get("holds_for_latex"):    # the inputs the formulas hold for (all the code accepts), a last row
                rows.append("  &\\text{for } " + r["holds_for_latex"])
            print(" \\\\\n".join(rows), file=out)
            print("\\end{aligned}\n", file=out)


# -- main -----------------------------------------------------------------------------------------------------


def _positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


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
    ap.add_argument("-j", "--jobs", type=_positive, metavar="N",
                    help="derive up to N rule files at once (default: $TENSOR_RULES_JOBS, else one per CPU, at most 8)")
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


def _interrupted(how="interrupted", code=130) -> int:
    script = argv_is_script()
    if script:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the message itself
    if output.UNFINISHED:       # a rename failed: the journal stays, and the next run finishes the switch
        msg = f"derive-rules: {how}; {output.UNFINISHED[-1]} is half-switched: run derive-rules again to finish"
    elif output.SWAPPED:
        msg = f"derive-rules: {how}; {output.SWAPPED[-1]} holds the new files"
    else:
        msg = f"derive-rules: {how}; nothing was written"
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


def read_rule_file(path: Path, shown: str) -> str:
    """The text of a rule file: UTF-8, with or without a byte-order mark. Raises DeriveError naming the file and
    the byte where decoding fails (latin-1, UTF-16, stray bytes), and OSError when it cannot be read."""
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


def _main(argv) -> int:
    args = build_parser().parse_args(argv)
    trusted_cache.build_notices(False)    # a native build while deriving: the status line covers it
    t0 = time.perf_counter()
    shipped = not args.files and not args.expr
    try:
        sources = _sources(args, shipped)
        if isinstance(sources, int):
            return sources
        results = _outcomes(sources, use_cache=not args.no_cache, kernels=bool(shipped or args.out),
                            jobs_at_once=args.jobs, show=progress.wanted(quiet=args.quiet or args.json))
    except DeriveError as exc:
        print(str(exc), file=sys.stderr)
        return 2

    ok = all(o["ok"] for o in results)
    out_dir = Path(args.out) if args.out else (GENERATED_DIR if shipped and not args.no_write else None)
    stale = []
    if out_dir is not None and ok:
        stale = _write_outputs(args, results, out_dir, shipped)
        if isinstance(stale, int):
            return stale
    if args.report and not args.check:    # failed rules too: the report says what failed and why
        status = _write_report(args, results)
        if status:
            return status
    _print_outcomes(args, results, t0)
    if stale:
        print(f"derive-rules --check: {out_dir} is stale; run `derive-rules` to regenerate:", file=sys.stderr)
        for s in stale:
            print(f"  {s}", file=sys.stderr)
        return 1
    if not ok:
        print("derive-rules: some rules failed verification; nothing was written", file=sys.stderr)
        return 1
    return 0


def _outcomes(sources, *, use_cache, kernels, jobs_at_once=None, show=False):
    """Each file's outcome: from the cache (derive.outcome_cache) when it holds it, else derived through the
    pipeline (the files the cache lacks side by side, pipeline.process_many) and stored when verified."""
    keys = [outcome_cache.key(text, label, module, bare_name=bare, kernels=kernels) if use_cache else None
            for text, label, module, bare in sources]
    return outcome_cache.cached_many(keys, lambda missing: _derive_missing([sources[i] for i in missing], kernels,
                                                                           jobs_at_once, show))


def _derive_missing(sources, kernels, jobs_at_once, show):
    # lazy on purpose: the engine (SymPy and every stage) loads only when something must be derived, so
    # a cached run starts as fast as the command did before the stages were modules of their own
    # SIGINT/SIGTERM held while the engine imports, and raised after it: raised inside the import machinery (a
    # module lock's callback) the interrupt is printed as an ignored exception with a traceback and then lost
    with output.signals_deferred():
        from derive import pipeline

    status = progress.Status([label for _, label, _, _ in sources]) if show else progress.Silent()
    try:
        return pipeline.process_many(sources, kernels=kernels, jobs_at_once=jobs_at_once, status=status)
    finally:
        status.close()


def _sources(args, shipped):
    """[(text, label, module, bare name)] to derive, or an exit code after a message."""
    sources = []
    if shipped:
        sources = [(read_rule_file(p, f"rules/{p.name}"), f"rules/{p.name}", artefacts.module_name(p), None)
                   for p in sorted(RULES_DIR.glob("*.rules"))]
        if not sources:
            print(f"derive-rules: no rule files in {RULES_DIR}", file=sys.stderr)
            return 2
    for f in args.files:
        p = Path(f)
        try:
            text = read_rule_file(p, f)
        except OSError as exc:
            print(f"derive-rules: cannot read {f}: {exc.strerror}", file=sys.stderr)
            return 2
        sources.append((text, f, artefacts.module_name(p), None))
    for k, e in enumerate(args.expr):
        # a whole rule (`-e "r(x[i]: positive) -> y[i] = log(x[i])"`) keeps its header and domains
        bare = None if starts_with_header(e, "<expr>") else "expr"
        sources.append((e, "<expr>", f"expr{k}" if len(args.expr) > 1 else "expr", bare))
    return _one_name_each(sources) if args.out or shipped else sources   # only output needs distinct names


def _one_name_each(sources):
    """The sources, or 2 after a message when two of them would become one module: every file written for a source
    is named after its module (runtime.artefacts), so they would overwrite each other. Names equal but for case
    clash too (one file where the file system ignores case). Refused rather than numbered: a module's name must
    not depend on what else is on the command line, or `import` lines break when it changes."""
    seen: dict = {}
    for _, label, module, _ in sources:
        if module.casefold() in seen:
            print(f"derive-rules: {seen[module.casefold()]} and {label} would both become module {module} "
                  f"({module}.py and its kernels); rename one", file=sys.stderr)
            return 2
        seen[module.casefold()] = label
    return sources


def _write_outputs(args, outcomes, out_dir, shipped):
    """The stale files (--check) or [] after writing; an exit code after a message when nothing could be written."""
    # the shipped library's own run owns generated/ whole (its __init__, stale modules); any other run adds files
    library = shipped and out_dir.resolve() == GENERATED_DIR.resolve()
    files = planned_files(outcomes, with_init=library)
    if args.check:
        return stale_files(files, out_dir, remove_stale=library)
    try:
        written = write_atomically(files, out_dir, remove_stale=library)
    except OutputConflict as exc:
        print(f"derive-rules: {exc}; nothing was written", file=sys.stderr)
        return 2
    except OSError as exc:
        half = "; it is half-switched: run derive-rules again to finish" if out_dir in output.UNFINISHED else ""
        print(f"derive-rules: cannot write {out_dir}: {exc}{half}", file=sys.stderr)
        return 2
    if not args.quiet and not args.json and written:
        print(f"wrote {_count(len(written), 'file')} in {out_dir}", file=sys.stderr)
    return []


def _write_report(args, outcomes):
    from derive.display import report  # lazy: SymPy's printers load only for --report

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
    return 0


def _print_outcomes(args, outcomes, t0):
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


def run() -> None:
    """The derive-rules command (and `python -m derive.cli`): main(), then the process ends without the
    interpreter's teardown, which frees every SymPy object of the derivation one by one (about 1 s after a
    1000-statement rule, 2 s on a loaded machine: issue 28). main() leaves nothing open when it returns (its worker
    pool, files and temporary directories are closed, its outputs switched); what it printed is flushed here."""
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):       # a reader gone after main's own flush: nothing more to say
            pass
    os._exit(status)


if __name__ == "__main__":
    run()
