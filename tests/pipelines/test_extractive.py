"""The offline extractive summariser: keeps informative sentences, in order, within budget."""

from __future__ import annotations

from graphmem.pipelines.extractive import Line, summarise
from graphmem.retrieval import tokens

CHAT = [
    Line("user", "Hi!"),
    Line("assistant", "Hello! How can I help you today?"),
    Line("user", "I moved to Lisbon last month. I work as a nurse at Santa Maria hospital."),
    Line("assistant", "Sounds good."),
    Line("user", "Thanks! My daughter turns 7 on 12 March."),
    Line("assistant", "You're welcome."),
    Line("user", "Ok."),
]


def test_greetings_are_dropped_when_there_is_content() -> None:
    summary = summarise(CHAT)
    for filler in ("Hi!", "Sounds good.", "You're welcome.", "Ok.", "Thanks!"):
        assert filler not in summary
    assert "user: I moved to Lisbon last month." in summary


def test_informative_sentences_win_over_chit_chat_under_a_tight_budget() -> None:
    chit_chat = [
        Line("assistant", "That is really interesting to hear, thank you for sharing it with me."),
        Line("user", "Yeah, it has been quite something, honestly, all things considered."),
    ]
    facts = [
        Line("user", "I work at Siemens as an engineer."),
        Line("user", "I live in Munich since 2019."),
    ]
    needed = tokens.count("\n".join(f"user: {line.text}" for line in facts))
    summary = summarise([chit_chat[0], facts[0], chit_chat[1], facts[1]], budget_tokens=needed)
    assert summary == "user: I work at Siemens as an engineer.\nuser: I live in Munich since 2019."


def test_original_order_is_kept() -> None:
    summary = summarise(CHAT)
    positions = [summary.index(s) for s in ("Lisbon", "nurse", "daughter")]
    assert positions == sorted(positions)


def test_budget_is_respected_on_a_long_input() -> None:
    lines = [
        Line(
            "user" if i % 2 == 0 else "assistant",
            f"Note {i}: the project codename is Falcon{i} and it ships in week {i % 52}. Ok.",
        )
        for i in range(200)
    ]
    for budget in (50, 200):
        summary = summarise(lines, budget_tokens=budget)
        assert summary
        assert tokens.count(summary) <= budget


def test_previous_summary_survives_a_recursive_step() -> None:
    first = summarise(CHAT)
    second = summarise(
        [
            Line("user", "Good morning!"),
            Line("user", "I just adopted a dog called Biscuit."),
            Line("assistant", "Congratulations!"),
        ],
        previous=first,
    )
    assert second.startswith(first)  # previous first, unchanged, as the budget allows
    assert second.endswith("user: I just adopted a dog called Biscuit.")
    assert "Good morning" not in second


def test_previous_summary_is_preferred_when_the_budget_is_tight() -> None:
    previous = "user: I work at Siemens as an engineer."
    new = [Line("user", "I bought a bicycle on Tuesday.")]
    budget = tokens.count(previous)
    assert summarise(new, previous=previous, budget_tokens=budget) == previous



def test_the_previous_summary_outweighs_a_new_sentence_that_would_win_alone() -> None:
    """A sentence kept once is hard to displace: a new one that scores higher on its own
    (a name, a place, a year) does not push it out when only one of them fits."""
    previous, new = "user: I like tea.", "Ana and Rui moved to Lisbon in 2024."
    budget = max(tokens.count(previous), tokens.count(f"user: {new}"))
    assert tokens.count(f"{previous}\nuser: {new}") > budget
    assert summarise([Line("user", new)], budget_tokens=budget) == f"user: {new}"
    assert summarise([Line("user", new)], previous=previous, budget_tokens=budget) == previous

def test_near_duplicates_are_kept_once() -> None:
    lines = [
        Line("user", "I live in Porto with my wife."),
        Line("user", "I live in Porto with my wife, by the way."),
    ]
    assert summarise(lines).count("Porto") == 1


def test_summaries_are_deterministic() -> None:
    assert summarise(CHAT, budget_tokens=30) == summarise(CHAT, budget_tokens=30)


def test_a_single_huge_sentence_is_truncated_within_budget() -> None:
    text = "I " + " ".join(f"visited city number {i} with friends" for i in range(400)) + "."
    summary = summarise([Line("user", text)], budget_tokens=40)
    assert summary.startswith("user: I visited city number 0")
    assert summary.endswith("…")
    assert tokens.count(summary) <= 40


def test_only_greetings_fall_back_to_the_first_sentence() -> None:
    summary = summarise([Line("user", "Hi there!"), Line("assistant", "Hello!")])
    assert summary == "user: Hi there!"


def test_one_line_without_previous() -> None:
    assert summarise([Line(None, "The invoice total was 420 euros.")], previous="") == (
        "The invoice total was 420 euros."
    )


def test_empty_input_gives_empty_summary() -> None:
    assert summarise([]) == ""
    assert summarise([Line("user", "   ")]) == ""
