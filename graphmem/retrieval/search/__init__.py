"""Hybrid, conversation-aware search over the whole memory graph.

Each kind (episodes, facts, summaries, entities) has an English-analysed Lucene index,
scoped to the namespace inside Lucene by an exact token, and a vector index (when an
embedder is configured). An episode is matched in its window (the turns around it, with
their speakers); speakers the query names boost the turns they spoke; a time the query
names is a soft prior; a session's score lifts its turns; a fact hit raises its evidence
episodes, a summary hit the turns it covers, an entity hit its current facts. Scores are
normalised per list and weighed (``config.SearchWeights``), and every hit says which
retrievers found it and at what rank. Facts are current (believed now, valid now or at
``valid_at``) unless history is asked for.

- ``query``: question words, speakers, Lucene queries;
- ``scores``: a candidate, each list brought to 0..1, its own score;
- ``signals``: what lifts a candidate besides its words (session, time, …), each declared
  once with its weight setting and scoring function;
- ``fusion``: the scoring, pure: own scores, the graph, then every signal in turn;
- ``engine``: the statements, in order.
"""

from graphmem.retrieval.search.engine import MAX_LIMIT, MAX_QUERY, search
from graphmem.retrieval.search.model import Hit, Kind, Match, SearchQuery, SearchResult

__all__ = ["MAX_LIMIT", "MAX_QUERY", "Hit", "Kind", "Match", "SearchQuery",
           "SearchResult", "search"]
