"""Runtime: primitives registry, tangent types, reverse-mode tape, forward-mode duals, backends."""
