"""The one pipeline."""
