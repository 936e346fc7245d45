"""Counting tokens the way a model would, offline.

The Llama-2 tokenizer ships inside the ``wordllama`` wheel, so counts need no download
(tiktoken fetches its encodings from the internet on first use). Counts differ from
OpenAI's cl100k by roughly ten percent on English text; budgets should keep that margin.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import wordllama
from tokenizers import Tokenizer

TOKENIZER = "llama-2"


@cache
def _tokenizer() -> Tokenizer:
    path = Path(wordllama.__file__).parent / "tokenizers" / "l2_supercat_tokenizer_config.json"
    return Tokenizer.from_file(str(path))


def count(text: str) -> int:
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)
