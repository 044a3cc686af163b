"""`op.rule`: an op's derivation and its proof, read from the record its generated module carries (`RULES`,
written by derive.display.record at generation time). Plain data and text: nothing here imports SymPy.
"""
from __future__ import annotations


def _e(x) -> str:
    """1e-08 -> '1e-8'."""
    m, _, e = f"{x:.0e}".partition("e")
    return f"{m}e{int(e)}"


def _bound(fig) -> str:
    b = fig.get("below") if fig else None
    return f"< {_e(b)}" if b is not None else "above the tolerance"


class Formula:
    """One statement of a pushforward or pullback: `text` (the matrix form where one passed its numerical
    check, else the index form), `latex`, `matrix` (None where none exists), `index`, `index_latex`."""

    __slots__ = ("target", "text", "latex", "matrix", "index", "index_latex")

    def __init__(self, d: dict):
        for k in self.__slots__:
            setattr(self, k, d.get(k))

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"<formula {self.text}>"


def _sampled(ref) -> str:
    """Where the reference compared an output at random entries only (beyond the verifier's work budget)."""
    got = (ref or {}).get("sampled") or {}
    return "".join(f", at {v['entries']} random entries of {k}'s {v['of']}" for k, v in got.items())


class Verification:
    """The figures of the check the rule passed before it was emitted (derive.verification.verify): each error as the bound
    it lies under (`fd_below`, `adjoint_below`, `reference_below`; the tolerances beside them), the number
    of points checked and skipped, and the extents of the index classes at which they were checked."""

    def __init__(self, d: dict):
        self.record = d
        fd, adj, ref = (d.get(k) or {} for k in ("finite_differences", "adjoint", "reference"))
        self.fd_below, self.fd_tolerance = fd.get("below"), fd.get("tolerance")
        self.adjoint_below, self.adjoint_tolerance = adj.get("below"), adj.get("tolerance")
        self.reference_below, self.reference_tolerance = ref.get("below"), ref.get("tolerance")
        self.points = d.get("points", 0)
        self.skipped = d.get("skipped", 0)
        self.extents = [dict(e) for e in d.get("extents", [])]

    def lines(self):
        ext = "; ".join(" ".join(f"{k}={v}" for k, v in e.items()) for e in self.extents if e)
        r = self.record
        return [
            f"pushforward against central finite differences: relative error "
            f"{_bound(r.get('finite_differences'))} (tolerance {_e(self.fd_tolerance)})",
            f"pullback against the pushforward (adjoint identity): relative error "
            f"{_bound(r.get('adjoint'))} (tolerance {_e(self.adjoint_tolerance)})",
            "forward value against the reference evaluation of the text: not compared (no point could be "
            "evaluated by the reference)" if (r.get("reference") or {}).get("points", 1) == 0 else
            f"forward value against the reference evaluation of the text: relative error "
            f"{_bound(r.get('reference'))} (tolerance {_e(self.reference_tolerance)})" + _sampled(r.get("reference")),
            f"{self.points} point{'s' if self.points != 1 else ''} checked"
            + (f", {self.skipped} skipped as ill posed" if self.skipped else "")
            + (f", at extents {ext}" if ext else ""),
        ]

    def __str__(self):
        return "\n".join(self.lines())

    __repr__ = __str__


class RuleInfo:
    """An op's rule as derived and verified. Fields: name, signature, file, line, location ('file:line'),
    text (the rule's source), doc, inputs, outputs, domains ({input: domain}), extents (declared in the
    header), equal_extents, pushforward and pullback (lists of Formula), saves (what the pullback keeps:
    {'inputs', 'outputs', 'intermediates'}), verified, verification (Verification, or None), record (the raw
    data). str() and repr() give all of it as text; latex() the formulas as a LaTeX aligned block."""

    def __init__(self, record: dict):
        self.record = record
        self.name = record.get("name", "")
        self.signature = record.get("signature", "")
        self.file = record.get("file", "")
        self.line = record.get("line")
        self.location = f"{self.file}:{self.line}" if self.line is not None else self.file
        self.text = record.get("text", "")
        self.doc = record.get("doc", "")
        self.inputs = record.get("inputs", [])
        self.outputs = record.get("outputs", [])
        self.domains = {i["name"]: i["domain"] for i in self.inputs if "domain" in i}
        self.extents = dict(record.get("extents") or {})
        self.equal_extents = [list(g) for g in record.get("equal_extents", [])]
        self.pushforward = [Formula(s) for s in record.get("pushforward", [])]
        self.pullback = [Formula(s) for s in record.get("pullback", [])]
        self.saves = record.get("saves", {})
        self.verified = bool(record.get("verified"))
        v = record.get("verification")
        self.verification = Verification(v) if v else None

    def latex(self) -> str:
        rows = [r"  &\text{pushforward}"] + ["  " + f.latex.replace(" = ", " &= ", 1) for f in self.pushforward]
        rows += [r"  &\text{pullback}"] + ["  " + f.latex.replace(" = ", " &= ", 1) for f in self.pullback]
        return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"

    def lines(self, header=True):
        out = []
        if header:
            out += [self.signature, ""]
            if self.doc:
                out += [self.doc, ""]
        out.append(f"Rule, from {self.location}:" if header else "Rule:")   # help() names the place above
        out += ["    " + ln for ln in self.text.splitlines()]
        doms = [f"{i['name']}: {i['domain']}{'' if i.get('declared') else ' (inferred)'}"
                for i in self.inputs if i.get("domain", "real") != "real"]
        if doms:
            out.append("Domains: " + ", ".join(doms))
        if self.extents:
            out.append("Extents: " + ", ".join(f"{k} = {v}" for k, v in self.extents.items()))
        if any(len(g) > 1 for g in self.equal_extents):
            out.append("Equal extents: " + "; ".join(" = ".join(g) for g in self.equal_extents if len(g) > 1))
        out.append("Pushforward:")
        out += ["    " + f.text for f in self.pushforward]
        out.append("Pullback:")
        out += ["    " + f.text for f in self.pullback]
        idx = [f for f in self.pushforward + self.pullback if f.matrix and f.index != f.matrix]
        if idx:
            out.append("In index form:")
            out += ["    " + f.index for f in self.pushforward + self.pullback]
        kept = [f"{n} ({what[:-1]})" for what in ("inputs", "outputs", "intermediates")
                for n in self.saves.get(what, [])]
        out.append("The pullback keeps: " + (", ".join(kept) if kept else "nothing"))
        if self.verification is not None:
            out.append("Verified:" if self.verified else "Verification FAILED:")
            out += ["    " + ln for ln in self.verification.lines()]
        else:
            out.append("Not verified.")
        out.append("In LaTeX:")
        out += ["    " + ln for ln in self.latex().splitlines()]
        return out

    def __str__(self):
        return "\n".join(self.lines())

    __repr__ = __str__
