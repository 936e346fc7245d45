"""Every root field of the API with arguments that run it, for tests that must walk them
all (isolation, audit); a test fails when a field is added without an entry here.

Selections take ``$ns`` and, where a field names a thing, ``$id`` (an episode), ``$fact``,
``$job`` (ids) or ``$sid`` (an episode id given as a string).
"""

from __future__ import annotations

WALK = {
    "episodes": 'episodes(namespace: $ns, first: 50) { nodes { id content } }',
    "episode": 'episode(namespace: $ns, id: $id) { id }',
    "facts": 'facts(namespace: $ns, first: 50) { nodes { id object evidence { id } } }',
    "entity": 'entity(namespace: $ns, name: "Alice") { id factsOut { object } }',
    "provenance": 'provenance(namespace: $ns, factId: $fact) { fact { id } }',
    "traverse": 'traverse(namespace: $ns, from: "Alice", depth: 2) { nodes { name } '
                'edges { fact { object evidence { content } } } }',
    "timeline": 'timeline(namespace: $ns, entity: "Alice") { nodes { fact { object } } }',
    "verify_fact": 'verifyFact(namespace: $ns, factId: $fact) { verdict checks { '
                   'episode { content } } }',
    "search": 'search(namespace: $ns, query: "Alice lives Lisbon Porto") { hits { kind '
              'episode { content } fact { object } entity { name } summary { text } } }',
    "recall": 'recall(namespace: $ns, query: "Where does Alice live?", sessionId: "s1") '
              '{ pieces { text } entities { name } }',
    "audit_log": 'auditLog(namespace: $ns) { nodes { operation } }',
    "memory_stats": 'memoryStats(namespace: $ns) { episodes believedFacts openConflicts }',
    "conflicts": 'conflicts(namespace: $ns) { nodes { id candidates { object } } }',
    "predicate_policies": 'predicatePolicies(namespace: $ns) { predicate isDefault }',
    "summary": 'summary(namespace: $ns, sessionId: "s1") { id text }',
    "jobs": 'jobs(namespace: $ns) { nodes { id episodes producedFacts { object } } }',
    "job": 'job(namespace: $ns, id: $job) { id producedFacts { object } }',
    "pipelines": 'pipelines(namespace: $ns) { extract summarize }',
    "retention_policies": 'retentionPolicies(namespace: $ns) { kind maxAgeDays action }',
    "pruning_policy": 'pruningPolicy(namespace: $ns) { minConfidence unusedForDays }',
    "sessions": 'sessions(namespace: $ns) { nodes { sessionId episodes lastAt '
                'ephemeralIdleMinutes } }',
    "webhooks": 'webhooks(namespace: $ns) { id url deliveries { state } }',
    "erasure_plan": 'erasurePlan(namespace: $ns, entity: "Alice", mentions: REDACT) { '
                    'facts { text } turns { id excerpt } summaries { excerpt } }',
    "memory_changes": 'memoryChanges(namespace: $ns, device: "d1") { lines cursor hasMore '
                      'erased { kind id } }',
    "held_turns": 'heldTurns(namespace: $ns, device: "d1") { ids hasMore }',
}

# Root fields about the key itself, not a namespace (tests/api/test_viewer.py walks them).
KEY_ONLY = {"viewer"}


ADMIN_ONLY = {"audit_log", "webhooks"}

# Every mutation, aimed at B by a key for A (with B's ids where it takes ids).
MUTATIONS = {
    "record_episodes": 'recordEpisodes(namespace: $ns, episodes: [{content: "x", kind: '
                       'USER_MESSAGE, occurredAt: "2026-05-01T10:00:00Z"}]) { created }',
    "assert_facts": 'assertFacts(namespace: $ns, facts: [{subject: "Alice", predicate: '
                    '"lives_in", object: "Faro"}]) { outcome }',
    "retract_fact": 'retractFact(namespace: $ns, factId: $fact, reason: "x") { id }',
    "forget_fact": 'forgetFact(namespace: $ns, factId: $fact, reason: "x") { id }',
    "pin_fact": 'pinFact(namespace: $ns, factId: $fact) { id pinned }',
    "unpin_fact": 'unpinFact(namespace: $ns, factId: $fact) { id pinned }',
    "forget_episode": 'forgetEpisode(namespace: $ns, id: $id, reason: "x") { episode { id } }',
    "correct_fact": 'correctFact(namespace: $ns, factId: $fact, object: "Faro", reason: "x") '
                    '{ outcome }',
    "resolve_conflict": 'resolveConflict(namespace: $ns, conflictId: $id, keep: $fact, '
                        'reason: "x") { id }',
    "set_predicate_policy": 'setPredicatePolicy(namespace: $ns, predicate: "mood", '
                            'cardinality: MANY, strategy: RECENCY) { predicate }',
    "erase_episodes": 'eraseEpisodes(namespace: $ns, ids: [$sid]) { verified }',
    "erase_subject": 'eraseSubject(namespace: $ns, entity: "Alice") { verified }',
    "destroy_namespace_key": 'destroyNamespaceKey(namespace: $ns, confirm: $ns)',
    "erase_namespace": 'eraseNamespace(namespace: $ns, confirm: $ns) { verified }',
    "set_retention_policy": 'setRetentionPolicy(namespace: $ns, policy: {maxAgeDays: 1, '
                            'action: DELETE}) { action }',
    "remove_retention_policy": 'removeRetentionPolicy(namespace: $ns)',
    "sweep_retention": 'sweepRetention(namespace: $ns) { matched }',
    "set_pruning_policy": 'setPruningPolicy(namespace: $ns, policy: {minConfidence: 0.5, '
                          'unusedForDays: 30}) { minConfidence }',
    "remove_pruning_policy": 'removePruningPolicy(namespace: $ns)',
    "prune_facts": 'pruneFacts(namespace: $ns, dryRun: true) { count }',
    "mark_session_ephemeral": 'markSessionEphemeral(namespace: $ns, sessionId: "s9") '
                              '{ idleMinutes }',
    "close_session": 'closeSession(namespace: $ns, sessionId: "s1") { verified }',
    "rehydrate": 'rehydrate(namespace: $ns, ids: [$id]) { id content }',
    "redact_episode": 'redactEpisode(namespace: $ns, id: $id, reason: "x") { id }',
    "add_alias": 'addAlias(namespace: $ns, name: "Alice", alias: "Al") { id }',
    "merge_entities": 'mergeEntities(namespace: $ns, from: "Alice", into: "Porto") '
                      '{ factsMoved }',
    "write_summary": 'writeSummary(namespace: $ns, summary: {text: "x", covers: [$sid]}) '
                     '{ id }',
    "extract_facts": 'extractFacts(namespace: $ns, episodeIds: [$id], wait: true) { id }',
    "summarize": 'summarize(namespace: $ns, sessionId: "s1", wait: true) { id }',
    "set_pipelines": 'setPipelines(namespace: $ns, extract: true) { extract }',
    "retry_job": 'retryJob(namespace: $ns, id: $job) { id }',
    "add_webhook": 'addWebhook(namespace: $ns, url: "https://hooks.example.com/h") { secret }',
    "remove_webhook": 'removeWebhook(namespace: $ns, id: $id)',
    "erase_held_turns": 'eraseHeldTurns(namespace: $ns, device: "d1", ids: [$id]) '
                        '{ verified }',
    "push_memory": 'pushMemory(namespace: $ns, device: "d1", lines: ["{\\"format\\": '
                   '\\"graphmem-export\\", \\"version\\": 1, \\"namespace\\": \\"x\\", '
                   '\\"decrypted\\": false}", "{\\"end\\": {\\"nodes\\": 0, '
                   '\\"relationships\\": 0}}"]) { changed }',
}

VARIABLE_TYPES = {"id": "ID!", "fact": "ID!", "job": "ID!", "sid": "String!"}


def document(operation: str, selection: str) -> str:
    """``operation`` ("query" or "mutation") around ``selection``, declaring its variables."""
    params = "$ns: String!" + "".join(f", ${k}: {t}" for k, t in VARIABLE_TYPES.items()
                                      if f"${k}" in selection)
    return f"{operation}({params}) {{ {selection} }}"
