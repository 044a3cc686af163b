"""The rule language: tokens, parser, syntax tree and positioned errors."""
