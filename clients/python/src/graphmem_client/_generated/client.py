from typing import Any, Optional, Union

from .about import About
from .about_at import AboutAt
from .add_alias import AddAlias
from .assert_facts import AssertFacts
from .base_client import BaseClient
from .base_model import UNSET, UnsetType
from .correct_fact import CorrectFact
from .enums import Cardinality, MentionScope, SearchKind, Strategy
from .erase_episodes import EraseEpisodes
from .erase_namespace import EraseNamespace
from .erase_subject import EraseSubject
from .erasure_plan import ErasurePlan
from .history import History
from .input_types import EpisodeInput, FactInput, LiteralInput
from .open_conflicts import OpenConflicts
from .operations import (
    ABOUT_AT_GQL,
    ABOUT_GQL,
    ADD_ALIAS_GQL,
    ASSERT_FACTS_GQL,
    CORRECT_FACT_GQL,
    ERASE_EPISODES_GQL,
    ERASE_NAMESPACE_GQL,
    ERASE_SUBJECT_GQL,
    ERASURE_PLAN_GQL,
    HISTORY_GQL,
    OPEN_CONFLICTS_GQL,
    PROVENANCE_GQL,
    RECALL_GQL,
    RECORD_EPISODES_GQL,
    RESOLVE_CONFLICT_GQL,
    RETRACT_FACT_GQL,
    SEARCH_GQL,
    SESSION_SUMMARY_GQL,
    SET_PREDICATE_POLICY_GQL,
)
from .provenance import Provenance
from .recall import Recall
from .record_episodes import RecordEpisodes
from .resolve_conflict import ResolveConflict
from .retract_fact import RetractFact
from .search import Search
from .session_summary import SessionSummary
from .set_predicate_policy import SetPredicatePolicy


def gql(q: str) -> str:
    return q


class Client(BaseClient):
    async def open_conflicts(
        self,
        namespace: str,
        first: int,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> OpenConflicts:
        variables: dict[str, object] = {
            "namespace": namespace,
            "first": first,
            "after": after,
        }
        response = await self.execute(
            query=OPEN_CONFLICTS_GQL,
            operation_name="OpenConflicts",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return OpenConflicts.model_validate(data)

    async def resolve_conflict(
        self, namespace: str, conflict_id: str, keep: str, reason: str, **kwargs: Any
    ) -> ResolveConflict:
        variables: dict[str, object] = {
            "namespace": namespace,
            "conflictId": conflict_id,
            "keep": keep,
            "reason": reason,
        }
        response = await self.execute(
            query=RESOLVE_CONFLICT_GQL,
            operation_name="ResolveConflict",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return ResolveConflict.model_validate(data)

    async def add_alias(
        self, namespace: str, name: str, alias: str, **kwargs: Any
    ) -> AddAlias:
        variables: dict[str, object] = {
            "namespace": namespace,
            "name": name,
            "alias": alias,
        }
        response = await self.execute(
            query=ADD_ALIAS_GQL,
            operation_name="AddAlias",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return AddAlias.model_validate(data)

    async def record_episodes(
        self, namespace: str, episodes: list[EpisodeInput], **kwargs: Any
    ) -> RecordEpisodes:
        variables: dict[str, object] = {"namespace": namespace, "episodes": episodes}
        response = await self.execute(
            query=RECORD_EPISODES_GQL,
            operation_name="RecordEpisodes",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return RecordEpisodes.model_validate(data)

    async def erase_subject(
        self, namespace: str, entity: str, mentions: MentionScope, **kwargs: Any
    ) -> EraseSubject:
        variables: dict[str, object] = {
            "namespace": namespace,
            "entity": entity,
            "mentions": mentions,
        }
        response = await self.execute(
            query=ERASE_SUBJECT_GQL,
            operation_name="EraseSubject",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return EraseSubject.model_validate(data)

    async def erasure_plan(
        self, namespace: str, entity: str, mentions: MentionScope, **kwargs: Any
    ) -> ErasurePlan:
        variables: dict[str, object] = {
            "namespace": namespace,
            "entity": entity,
            "mentions": mentions,
        }
        response = await self.execute(
            query=ERASURE_PLAN_GQL,
            operation_name="ErasurePlan",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return ErasurePlan.model_validate(data)

    async def erase_episodes(
        self, namespace: str, ids: list[str], **kwargs: Any
    ) -> EraseEpisodes:
        variables: dict[str, object] = {"namespace": namespace, "ids": ids}
        response = await self.execute(
            query=ERASE_EPISODES_GQL,
            operation_name="EraseEpisodes",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return EraseEpisodes.model_validate(data)

    async def erase_namespace(
        self, namespace: str, confirm: str, **kwargs: Any
    ) -> EraseNamespace:
        variables: dict[str, object] = {"namespace": namespace, "confirm": confirm}
        response = await self.execute(
            query=ERASE_NAMESPACE_GQL,
            operation_name="EraseNamespace",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return EraseNamespace.model_validate(data)

    async def assert_facts(
        self, namespace: str, facts: list[FactInput], **kwargs: Any
    ) -> AssertFacts:
        variables: dict[str, object] = {"namespace": namespace, "facts": facts}
        response = await self.execute(
            query=ASSERT_FACTS_GQL,
            operation_name="AssertFacts",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return AssertFacts.model_validate(data)

    async def correct_fact(
        self,
        namespace: str,
        fact_id: str,
        reason: str,
        object_: Union[Optional[str], UnsetType] = UNSET,
        value: Union[Optional[LiteralInput], UnsetType] = UNSET,
        evidence: Union[Optional[list[str]], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> CorrectFact:
        variables: dict[str, object] = {
            "namespace": namespace,
            "factId": fact_id,
            "reason": reason,
            "object": object_,
            "value": value,
            "evidence": evidence,
        }
        response = await self.execute(
            query=CORRECT_FACT_GQL,
            operation_name="CorrectFact",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return CorrectFact.model_validate(data)

    async def retract_fact(
        self, namespace: str, fact_id: str, reason: str, **kwargs: Any
    ) -> RetractFact:
        variables: dict[str, object] = {
            "namespace": namespace,
            "factId": fact_id,
            "reason": reason,
        }
        response = await self.execute(
            query=RETRACT_FACT_GQL,
            operation_name="RetractFact",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return RetractFact.model_validate(data)

    async def about(self, namespace: str, name: str, **kwargs: Any) -> About:
        variables: dict[str, object] = {"namespace": namespace, "name": name}
        response = await self.execute(
            query=ABOUT_GQL, operation_name="About", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return About.model_validate(data)

    async def about_at(
        self,
        namespace: str,
        name: str,
        first: int,
        valid_at: Union[Optional[Any], UnsetType] = UNSET,
        as_of: Union[Optional[Any], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> AboutAt:
        variables: dict[str, object] = {
            "namespace": namespace,
            "name": name,
            "validAt": valid_at,
            "asOf": as_of,
            "first": first,
        }
        response = await self.execute(
            query=ABOUT_AT_GQL, operation_name="AboutAt", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return AboutAt.model_validate(data)

    async def history(
        self,
        namespace: str,
        subject: str,
        first: int,
        predicate: Union[Optional[str], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> History:
        variables: dict[str, object] = {
            "namespace": namespace,
            "subject": subject,
            "predicate": predicate,
            "first": first,
            "after": after,
        }
        response = await self.execute(
            query=HISTORY_GQL, operation_name="History", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return History.model_validate(data)

    async def provenance(
        self, namespace: str, fact_id: str, **kwargs: Any
    ) -> Provenance:
        variables: dict[str, object] = {"namespace": namespace, "factId": fact_id}
        response = await self.execute(
            query=PROVENANCE_GQL,
            operation_name="Provenance",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return Provenance.model_validate(data)

    async def set_predicate_policy(
        self,
        namespace: str,
        predicate: str,
        cardinality: Cardinality,
        strategy: Strategy,
        **kwargs: Any,
    ) -> SetPredicatePolicy:
        variables: dict[str, object] = {
            "namespace": namespace,
            "predicate": predicate,
            "cardinality": cardinality,
            "strategy": strategy,
        }
        response = await self.execute(
            query=SET_PREDICATE_POLICY_GQL,
            operation_name="SetPredicatePolicy",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return SetPredicatePolicy.model_validate(data)

    async def recall(
        self,
        namespace: str,
        query: str,
        token_budget: int,
        session_id: Union[Optional[str], UnsetType] = UNSET,
        as_of: Union[Optional[Any], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Recall:
        variables: dict[str, object] = {
            "namespace": namespace,
            "query": query,
            "sessionId": session_id,
            "tokenBudget": token_budget,
            "asOf": as_of,
        }
        response = await self.execute(
            query=RECALL_GQL, operation_name="Recall", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Recall.model_validate(data)

    async def search(
        self,
        namespace: str,
        query: str,
        limit: int,
        kinds: Union[Optional[list[SearchKind]], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> Search:
        variables: dict[str, object] = {
            "namespace": namespace,
            "query": query,
            "limit": limit,
            "kinds": kinds,
        }
        response = await self.execute(
            query=SEARCH_GQL, operation_name="Search", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Search.model_validate(data)

    async def session_summary(
        self, namespace: str, session_id: str, **kwargs: Any
    ) -> SessionSummary:
        variables: dict[str, object] = {"namespace": namespace, "sessionId": session_id}
        response = await self.execute(
            query=SESSION_SUMMARY_GQL,
            operation_name="SessionSummary",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return SessionSummary.model_validate(data)
