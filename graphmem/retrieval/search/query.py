"""What a search query asks for: the words worth matching, the speakers it names, the time
it mentions; and the Lucene queries made of them.

A conversation question ("When did Caroline go to the support group?") is not a bag of
keywords. Its question words match everywhere; a speaker's name matches the turns that
*address* her, never the ones she spoke (nobody says their own name); a date points at when
something was said, not at a word in it. So question words are dropped, names of the
namespace's speakers become a boost on who spoke, and a time becomes a soft prior.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from graphmem.core.config import SearchWeights

# Words that say what kind of answer is wanted, not what it is about. The English analyzer
# drops its own short stop list ("the", "is", …) too; these are the rest of a question.
QUESTION_WORDS = frozenset("""
what when where who whom whose which why how did does do done is are was were be been being
has have had her hers his him he she they them their theirs it its i me my mine you your yours
we us our ours a an the of to in on at for and or but with from by about as would could
should will can may might must shall kind type sort ever any some something anything thing
things there this that these those also
""".split())  # noqa: SIM905 (a word list reads better as words)
MAX_NAME_WORDS = 3  # a speaker's name in a query is at most this many words ("Dr Ana Lima")
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Terms:
    words: tuple[str, ...]  # what Lucene matches in turns: no question words, no speakers
    named: tuple[str, ...]  # for facts, summaries and entities: with the speakers' names
    actors: tuple[str, ...]  # the speakers' names found in the query, as recorded


def words(text: str) -> list[str]:
    """Lower-case words of two characters or more: Lucene syntax cannot pass through."""
    return [w for w in _WORD.findall(text.casefold()) if len(w) > 1]


def name_candidates(text: str) -> list[str]:
    """The query's word n-grams that could be a speaker's name (see
    ``core.identifiers.actor_key``)."""
    found = _WORD.findall(text.casefold())
    grams = {" ".join(found[i:i + n]) for n in range(1, MAX_NAME_WORDS + 1)
             for i in range(len(found) - n + 1)}
    return sorted(grams)


def terms(text: str, speakers: Mapping[str, str]) -> Terms:
    """The query's content words, without question words and without the names of
    ``speakers`` (key -> name as recorded). A query of nothing else keeps what it has."""
    every = words(text)
    named = [key for key in sorted(speakers, key=len, reverse=True)
             if re.search(rf"(?<!\w){re.escape(key)}(?!\w)", " ".join(every))]
    name_words = {w for key in named for w in key.split()}
    asked = [w for w in every if w not in QUESTION_WORDS] or every
    content = [w for w in asked if w not in name_words] or asked
    return Terms(tuple(dict.fromkeys(content)), tuple(dict.fromkeys(asked)),
                 tuple(speakers[key] for key in named))


def episode_lucene(ns_key: str, found: Terms, weights: SearchWeights) -> str:
    """Required: the namespace token and any word, in the turn's window or its own words;
    optional: who spoke, for the named speakers."""
    text = " ".join(found.words)
    query = f"+ns_key:{ns_key} +(window:({text}) content:({text})^{weights.own_words})"
    for name in found.actors:
        query += f' actor:"{" ".join(words(name))}"^{weights.speaker}'
    return query


def lucene(ns_key: str, field: str, found: Terms) -> str:
    """Facts, summaries and entities: the namespace token and any word in ``field``."""
    return f"+ns_key:{ns_key} +{field}:({' '.join(found.named)})"
