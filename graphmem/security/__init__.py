"""Who may do what (API keys, rate limits) and encryption of content at rest."""
