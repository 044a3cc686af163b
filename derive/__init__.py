"""Derivation engine: rule language, IR, linearization and transposition, verification, codegen driver."""
