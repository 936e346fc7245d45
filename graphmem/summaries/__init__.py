"""Summaries: compressed context per session and hierarchically."""
