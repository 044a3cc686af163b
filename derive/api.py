"""The Python API mirroring `derive-rules`: rule text in, derived + verified rules and module source out.

    >>> from derive import api
    >>> r = api.derive_expr("B = inv(A)")
    >>> print(r.pullback_text())          # dA = -Bᵀ·dB·Bᵀ

Every function here runs derive.pipeline, the one pipeline that `derive-rules` and `runtime.define` run.
"""
from __future__ import annotations

from derive.pipeline import (  # noqa: F401  (the API's names)
    COMMAND,
    RuleResult,
    define_files,
    derive_text,
    generate_module_source,
    parse,
    process,
    render_module,
    verify_results,
)

__all__ = ["RuleResult", "define_files", "derive_expr", "derive_text", "generate_module_source", "parse", "process",
           "render_module", "verify_results"]


def derive_expr(text: str, name: str = "expr") -> RuleResult:
    """Derive one bare expression such as "B = inv(A)" (inputs and outputs inferred)."""
    return derive_text(text, "<expr>", bare_name=name)[0]
