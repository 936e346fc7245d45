"""Tiered storage: old episodes' content moved to an archive store, brought back on request."""
