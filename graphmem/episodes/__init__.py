"""Episodes: the lossless, append-only log of what happened."""
