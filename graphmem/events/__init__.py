"""What changed in memory, told to whoever listens: an outbox written by the transaction that
makes the change, followed by subscriptions (and, later, webhooks)."""
