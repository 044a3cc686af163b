"""LaTeX that compiles: a real TeX engine (pdflatex, with amsmath) where one is installed (.ci/run installs
Debian's texlive-latex-base), else a strict model of what TeX refuses -- unbalanced groups, a double or dangling
sub/superscript, a command no loaded package defines, raw Unicode in math."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

ENGINE = shutil.which("pdflatex")

# the commands our LaTeX may use (LaTeX kernel and amsmath): anything else would stop TeX with "Undefined
# control sequence" in the model too
KNOWN = set("""mathrm mathit mathbf operatorname text left right lVert rVert lvert rvert top circ odot sum prod
frac tfrac sqrt log exp det lambda delta Phi infty in succ le ge ne neq leq geq cdot int max min sin cos tan
tanh sinh cosh arcsin arccos arctan ln pi sigma mu alpha beta gamma epsilon varepsilon theta omega tau rho
nu kappa xi eta zeta chi psi phi varphi Gamma Delta Lambda Sigma Omega Theta Pi Psi quad qquad begin end
mathcal operatorname boldsymbol prime ldots cdots dots overline hat tilde bar vec times pm mp lfloor rfloor
lceil rceil langle rangle vert Vert""".split())


def model_errors(tex: str) -> list:
    """What TeX would refuse in a math snippet, by a small model of its lexer."""
    errs = []
    stack = [{"_": False, "^": False}]
    k = 0
    for m in re.finditer(r"\\([A-Za-z]+)", tex):
        if m.group(1) not in KNOWN:
            errs.append(f"unknown command \\{m.group(1)}")
    wide = sorted(set(re.findall(r"[^\x00-\x7f]", tex)))
    if wide:
        errs.append(f"raw Unicode in math: {wide}")
    while k < len(tex):
        c = tex[k]
        if c in "_^":
            if stack[-1][c]:
                errs.append(f"double {c} at {k}: {tex[max(0, k - 20):k + 10]!r}")
            stack[-1][c] = True
            k = _skip_arg(tex, k + 1, errs)
            continue
        if c == "{":
            stack.append({"_": False, "^": False})
        elif c == "}":
            if len(stack) == 1:
                errs.append(f"unbalanced }} at {k}")
            else:
                stack.pop()
            stack[-1] = {"_": False, "^": False}
        elif c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[k:])
            k += len(m.group(0)) if m else 1
            stack[-1] = {"_": False, "^": False}
            continue
        elif c != " ":
            stack[-1] = {"_": False, "^": False}
        k += 1
    if len(stack) != 1:
        errs.append("unbalanced {")
    if tex.count(r"\left") != tex.count(r"\right"):
        errs.append("unbalanced \\left/\\right")
    return errs


def _skip_arg(tex, k, errs):
    while k < len(tex) and tex[k] == " ":
        k += 1
    if k >= len(tex) or tex[k] in "_^}&":
        errs.append(f"missing script argument at {k}")
        return k
    if tex[k] == "{":
        depth = 0
        while k < len(tex):
            depth += {"{": 1, "}": -1}.get(tex[k], 0) if tex[k - 1] != "\\" else 0
            k += 1
            if depth == 0:
                return k
        errs.append("unbalanced group")
        return k
    if tex[k] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", tex[k:])
        return k + len(m.group(0))
    return k + 1


def engine_errors(blocks: list) -> dict:
    """{block number: TeX's error} of displayed math blocks compiled by pdflatex in one document."""
    doc = ["\\documentclass{article}", "\\usepackage{amsmath,amssymb}", "\\begin{document}"]
    starts = []
    for b in blocks:
        starts.append(len(doc) + 1)
        doc += ["\\[", b, "\\]"]
    doc.append("\\end{document}")
    with tempfile.TemporaryDirectory() as d:
        Path(d, "t.tex").write_text("\n".join(doc) + "\n", encoding="utf-8")
        subprocess.run([ENGINE, "-interaction=nonstopmode", "-no-shell-escape", "t.tex"], cwd=d,
                       capture_output=True, timeout=300)
        log = Path(d, "t.log").read_text(encoding="latin-1")
    out = {}
    for m in re.finditer(r"^! (.*?)$.*?^l\.(\d+)", log, re.S | re.M):
        line = int(m.group(2))
        k = max((n for n, s in enumerate(starts) if s <= line + 2), default=0)
        out.setdefault(k, m.group(1))
    if "! " in log and not out:
        out[-1] = log[log.index("! "):][:300]
    return out


def errors(blocks: list) -> dict:
    """{block number: why TeX refuses it}: the engine's word where there is one, the model's everywhere."""
    out = {k: "; ".join(e) for k, b in enumerate(blocks) if (e := model_errors(b))}
    if ENGINE:
        out.update(engine_errors(blocks))
    return out
