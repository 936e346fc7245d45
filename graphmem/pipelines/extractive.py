"""Offline extractive summaries, for when no LLM is configured.

This summariser *selects* sentences; it never paraphrases, merges sentences, or resolves
pronouns. A kept "He moved there in May." stays exactly that, antecedent or not. What it offers
is a deterministic, dependency-free summary that keeps the informative sentences of a
conversation (who the user is, where they live and work, numbers, dates, names, corrections)
and drops the chit-chat, within a token budget.

It is used recursively: the next summary is ``summarise(new_lines, previous=summary)``. The
previous summary's sentences compete again with the new ones, with a bonus, so facts survive
from one summary to the next unless the budget forces them out.

Output is one sentence per line, in original order (previous summary first), each prefixed with
its actor when known: ``user: I moved to Lisbon last month.``. That format parses back
losslessly when the summary is passed as ``previous``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from graphmem.retrieval import tokens

SEPARATOR = "\n"
ELLIPSIS = "…"
NEAR_DUPLICATE = 0.7  # Jaccard of content-word sets at or above which two sentences repeat
USER_ACTORS = frozenset({"user"})
JOIN_SLACK = 2  # tokens a join may save over the sum of its parts' counts

# Multiplicative bonuses, so they scale with the informativeness they reward rather than
# lifting empty sentences above meaningful ones.
PREVIOUS_BONUS = 1.0  # already judged worth keeping once; make it hard to displace
SELF_STATEMENT_BONUS = 0.5
CORRECTION_BONUS = 0.5
NUMBER_BONUS = 0.3
PROPER_NOUN_BONUS = 0.3

_STOPWORD_TEXT = """
    the and for are but not you your yours all any can had has have her hers him his how its
    our ours out she they them their theirs this that these those was were what when where which
    who whom why will with would could should from into onto about above after again against
    before being below between both down during each few more most other some such than then
    there here too very just also only own same off over under until while does did doing done
    been because through upon yet nor may might must shall one ones let lets get got
    i'm i've i'd i'll you're you've you'd you'll he's she's it's we're we've they're they've
    that's there's what's don't doesn't didn't isn't aren't wasn't weren't can't won't
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

# Words that carry no content in conversation: a sentence made only of these (and stopwords)
# is a greeting, an acknowledgement or a pleasantry.
_FILLER_TEXT = """
    hi hello hey hiya howdy yo thanks thank thx cheers welcome okay ok sure yes yeah yep yup
    nope great good fine cool nice awesome perfect lovely wonderful excellent amazing fantastic
    sounds sound congratulations congrats bye goodbye later morning afternoon evening night
    glad happy help helpful helped appreciate appreciated problem worries anytime absolutely
    definitely indeed alright right well wow haha lol hmm please pleasure know anything else
    questions question feel free hope day today tonight see talk soon care assist
"""
FILLER_WORDS = frozenset(_FILLER_TEXT.split())

WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\d.,:/-]*")
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
ACTOR_PREFIX = re.compile(r"^([A-Za-z0-9_.-]{1,40}):\s+(.*)$")
# Splitting after these would cut "Dr. Smith" in two.
ABBREVIATIONS = frozenset({"mr.", "mrs.", "ms.", "dr.", "st.", "prof.", "e.g.", "i.e.", "vs."})
SELF_STATEMENT = re.compile(r"\b(?:i|i'm|i’m|i've|i’ve|i'd|i’d|my|mine)\b", re.IGNORECASE)
CORRECTION = re.compile(r"\bactually\b", re.IGNORECASE)
NUMBER = re.compile(r"\d")
PRONOUN_I = re.compile(r"^I(?:['’].*)?$")


@dataclass(frozen=True)
class Line:
    actor: str | None  # who said it ("user", "assistant", a tool name) or None
    text: str


@dataclass(frozen=True)
class _Sentence:
    actor: str | None
    text: str
    from_previous: bool

    def render(self) -> str:
        return f"{self.actor}: {self.text}" if self.actor else self.text


def summarise(lines: list[Line], previous: str | None = None, budget_tokens: int = 200) -> str:
    """Select the most informative sentences of ``previous`` and ``lines`` within the budget.

    Returns "" only when the input holds no text at all.
    """
    sentences = _previous_sentences(previous or "")
    sentences += _line_sentences(lines)  # list position is the output order
    if not sentences:
        return ""
    contents = [_content_words(s.text) for s in sentences]
    candidates = [i for i, words in enumerate(contents) if words]
    if not candidates:  # only greetings and pleasantries: keep the first, as a trace
        return _truncate(sentences[0].render(), budget_tokens)
    weights = _inverse_frequencies(contents)
    scores = {i: _score(sentences[i], contents[i], weights) for i in candidates}
    chosen = _select(sentences, contents, scores, budget_tokens)
    if not chosen:  # even the best sentence alone is over budget
        best = min(candidates, key=lambda i: (-scores[i], i))
        return _truncate(sentences[best].render(), budget_tokens)
    return SEPARATOR.join(sentences[i].render() for i in sorted(chosen))


def _previous_sentences(previous: str) -> list[_Sentence]:
    """Parse a summary back into sentences, recovering ``actor: `` prefixes line by line."""
    result: list[_Sentence] = []
    for raw in previous.splitlines():
        match = ACTOR_PREFIX.match(raw.strip())
        actor, text = (match.group(1), match.group(2)) if match else (None, raw)
        for sentence in _split_sentences(text):
            result.append(_Sentence(actor, sentence, from_previous=True))
    return result


def _line_sentences(lines: list[Line]) -> list[_Sentence]:
    result: list[_Sentence] = []
    for line in lines:
        actor = line.actor.strip() if line.actor and line.actor.strip() else None
        for sentence in _split_sentences(line.text):
            result.append(_Sentence(actor, sentence, from_previous=False))
    return result


def _split_sentences(text: str) -> list[str]:
    """Split at sentence punctuation and line breaks; a heuristic, not a parser."""
    pieces: list[str] = []
    for paragraph in text.splitlines():
        for piece in SENTENCE_END.split(paragraph.strip()):
            piece = piece.strip()
            if not piece:
                continue
            if pieces and pieces[-1].split()[-1].lower() in ABBREVIATIONS:
                pieces[-1] = f"{pieces[-1]} {piece}"
            else:
                pieces.append(piece)
    return pieces


def _content_words(text: str) -> frozenset[str]:
    """Lowercase words that carry meaning: numbers, and words of 3+ letters not stop or filler."""
    words = (w.lower().replace("’", "'").strip("'-.,:/") for w in WORD.findall(text))
    return frozenset(
        w
        for w in words
        if w and (w[0].isdigit() or (len(w) >= 3 and w not in STOPWORDS and w not in FILLER_WORDS))
    )


def _inverse_frequencies(contents: list[frozenset[str]]) -> dict[str, float]:
    """Weight words by rarity across all sentences, so boilerplate counts for little."""
    frequency: dict[str, int] = {}
    for words in contents:
        for word in words:
            frequency[word] = frequency.get(word, 0) + 1
    total = len(contents)
    return {word: math.log(1 + total / count) for word, count in frequency.items()}


def _score(sentence: _Sentence, content: frozenset[str], weights: dict[str, float]) -> float:
    """Informativeness per (square root of) word: long sentences gain, but less than linearly."""
    length = max(1, len(WORD.findall(sentence.text)))
    base = sum(weights[w] for w in content) / math.sqrt(length)
    bonus = 0.0
    if sentence.from_previous:
        bonus += PREVIOUS_BONUS
    if sentence.actor in USER_ACTORS and SELF_STATEMENT.search(sentence.text):
        bonus += SELF_STATEMENT_BONUS
    if CORRECTION.search(sentence.text):
        bonus += CORRECTION_BONUS
    if NUMBER.search(sentence.text):
        bonus += NUMBER_BONUS
    if _has_proper_noun(sentence.text):
        bonus += PROPER_NOUN_BONUS
    return base * (1 + bonus)


def _has_proper_noun(text: str) -> bool:
    """A capitalised word after the first: a name, place, month. "I" does not count."""
    words = WORD.findall(text)[1:]
    return any(w[0].isupper() and not PRONOUN_I.match(w) for w in words)


def _select(
    sentences: list[_Sentence],
    contents: list[frozenset[str]],
    scores: dict[int, float],
    budget: int,
) -> list[int]:
    """Greedily take the best sentences that still fit, skipping near-duplicates of kept ones.

    Fit is measured on the joined text itself: counts are not additive across a join.
    """
    chosen: list[int] = []
    used = 0
    for i in sorted(scores, key=lambda i: (-scores[i], i)):
        if any(_jaccard(contents[i], contents[j]) >= NEAR_DUPLICATE for j in chosen):
            continue
        # Cheap rejection first: a join saves at most a token or two over the parts' sum.
        if used + tokens.count(sentences[i].render()) > budget + JOIN_SLACK:
            continue
        total = tokens.count(SEPARATOR.join(sentences[j].render() for j in sorted([*chosen, i])))
        if total <= budget:
            chosen.append(i)
            used = total
    return chosen


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def _truncate(text: str, budget: int) -> str:
    """Cut at a word boundary so that the text plus "…" fits the budget.

    When not even the second word fits (a URL, a blob after "tool:"), the cut falls inside it.
    Never returns "": with a budget too small for anything, one character and "…" remain.
    """
    if tokens.count(text) <= budget:
        return text
    words = text.split()
    kept = _longest_fitting(len(words), lambda n: " ".join(words[:n]), budget)
    if kept >= 2:
        return " ".join(words[:kept]) + ELLIPSIS
    cut = _longest_fitting(len(text), lambda n: text[:n], budget)
    return text[: max(1, cut)].rstrip() + ELLIPSIS


def _longest_fitting(size: int, prefix: Callable[[int], str], budget: int) -> int:
    """The largest n < size with prefix(n) + "…" within budget, or 0; by binary search."""
    low, high = 0, size - 1
    while low < high:
        middle = (low + high + 1) // 2
        if tokens.count(prefix(middle) + ELLIPSIS) <= budget:
            low = middle
        else:
            high = middle - 1
    return low
