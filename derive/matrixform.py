"""Matrix-form recognition (placeholder until the chain walker lands)."""


def stmt_matrix(ls, style="unicode"):
    return None
