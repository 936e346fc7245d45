"""Query analysis: question words out, speakers' names into a boost, Lucene kept exact."""

from __future__ import annotations

from graphmem.core.config import SearchWeights
from graphmem.core.namespaces import lucene_key
from graphmem.retrieval.search.query import episode_lucene, lucene, name_candidates, terms

SPEAKERS = {"caroline": "Caroline", "melanie": "Melanie", "dr ana lima": "Dr Ana Lima"}


def test_question_words_and_speaker_names_are_not_matched_as_words() -> None:
    found = terms("When did Caroline go to the LGBTQ support group?", SPEAKERS)
    assert found.words == ("go", "lgbtq", "support", "group")
    assert found.actors == ("Caroline",)
    # Facts, summaries and entities are about people by name: there the name stays.
    assert "caroline" in found.named


def test_multi_word_speakers_and_queries_of_nothing_else() -> None:
    assert terms("what did dr ana lima prescribe", SPEAKERS).actors == ("Dr Ana Lima",)
    assert terms("what did dr ana lima prescribe", SPEAKERS).words == ("prescribe",)
    only_name = terms("Caroline?", SPEAKERS)
    assert only_name.words == ("caroline",) and only_name.actors == ("Caroline",)
    assert terms("what is it", {}).words == ("what", "is", "it")


def test_a_name_inside_a_word_is_no_speaker() -> None:
    assert terms("Is Carolineville far?", SPEAKERS).actors == ()


def test_name_candidates_are_word_ngrams() -> None:
    grams = name_candidates("Did Dr Ana Lima call?")
    assert {"dr ana lima", "ana", "did dr ana"} <= set(grams)
    assert all(len(g.split()) <= 3 for g in grams)


def test_lucene_requires_the_exact_namespace_token_and_escapes_nothing_hostile() -> None:
    key = lucene_key("acme/bob")
    assert key != lucene_key("evil/acme/bob") != lucene_key("ACME/Bob")
    assert key.isalnum()
    hostile = terms('x") OR ns_key:* OR (content:"', {})
    query = episode_lucene(key, hostile, SearchWeights())
    assert query.startswith(f"+ns_key:{key} +(")
    assert '"' not in query.split(")", 1)[0] and "*" not in query
    assert lucene(key, "text", hostile).startswith(f"+ns_key:{key} +text:(")


def test_named_speakers_become_an_optional_boost() -> None:
    query = episode_lucene("k", terms("What did Melanie paint?", SPEAKERS),
                           SearchWeights(speaker=3.0))
    assert query == '+ns_key:k +(window:(paint) content:(paint)^0.5) actor:"melanie"^3.0'
