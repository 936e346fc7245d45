"""What several test modules share: a GraphQL client, the documents and inputs most
tests send, graph checks, a local OpenAI-compatible endpoint. Not tests themselves."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
