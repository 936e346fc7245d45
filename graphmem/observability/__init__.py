"""Metrics, traces and logs (never memory content)."""
