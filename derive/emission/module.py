"""A generated module's text: each op's forward, frule and rrule (derive.emission.numpy_module), laid out by
templates/numpy_module.py.j2 with the ops' metadata and, for an exported module, their records."""
from __future__ import annotations

from derive import COMMAND
from derive.emission import numpy_module as codegen
from derive.emission import numpy_print as emit_numpy
from derive.emission.templates import template_env


def render(results, source: str, *, export: bool = True, doc: str = "", command: str = COMMAND,
           records: str = "{}") -> str:
    """The module of `results` (each with `.name`, `.code` and `.twin`); `records`: the literal of the ops'
    records (derive.display.record), which only an exported module carries."""
    tpl = template_env().get_template("numpy_module.py.j2")
    ops = [r.code for r in results] + [r.twin.code for r in results if r.twin is not None]
    metas = {r.name: r.code.meta for r in results}
    return tpl.render(source=source, command=command, doc=(doc or f"Rules derived from {source}.").strip(),
                      ops=ops, ops_literal=codegen.ops_literal(metas), rules_literal=records if export else "{}",
                      export=export, chunk_name=emit_numpy.CHUNK_NAME, chunk_elements=emit_numpy.CHUNK_ELEMENTS)
