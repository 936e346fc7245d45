"""Keeping memory accountable: erasure, retention, the audit trail, statistics."""
