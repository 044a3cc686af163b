"""The Jinja2 environment every template is rendered in: layout only, and user text only through escaping filters."""
from __future__ import annotations

from pathlib import Path

import jinja2

from derive.emission import safe_text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def template_env() -> jinja2.Environment:
    """The Jinja2 environment of every template. User text (file names, comments) enters a template only
    through these filters: `comment` (inside a # or // comment), `docstring` (a whole literal), `pystr`."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters.update(comment=safe_text.comment_text, docstring=safe_text.py_docstring, pystr=repr)
    return env
