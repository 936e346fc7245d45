from enum import Enum


class Cardinality(str, Enum):
    ONE = "ONE"
    MANY = "MANY"


class ConflictStatus(str, Enum):
    OPEN = "OPEN"
    RESOLVED = "RESOLVED"


class EpisodeKind(str, Enum):
    USER_MESSAGE = "USER_MESSAGE"
    AGENT_MESSAGE = "AGENT_MESSAGE"
    TOOL_CALL = "TOOL_CALL"
    TOOL_RESULT = "TOOL_RESULT"
    OBSERVATION = "OBSERVATION"
    ERROR = "ERROR"
    DOCUMENT = "DOCUMENT"


class FactStatus(str, Enum):
    ACTIVE = "ACTIVE"
    DISPUTED = "DISPUTED"
    SUPERSEDED = "SUPERSEDED"
    RETRACTED = "RETRACTED"


class MentionScope(str, Enum):
    KEEP = "KEEP"
    REDACT = "REDACT"
    ERASE = "ERASE"


class Outcome(str, Enum):
    CREATED = "CREATED"
    EVIDENCE_ADDED = "EVIDENCE_ADDED"
    DISPUTED = "DISPUTED"
    SUPERSEDED = "SUPERSEDED"
    FORGOTTEN = "FORGOTTEN"


class SearchKind(str, Enum):
    EPISODE = "EPISODE"
    FACT = "FACT"
    SUMMARY = "SUMMARY"
    ENTITY = "ENTITY"


class Sensitivity(str, Enum):
    PUBLIC = "PUBLIC"
    PERSONAL = "PERSONAL"
    SENSITIVE = "SENSITIVE"
    HEALTH = "HEALTH"
    FINANCIAL = "FINANCIAL"


class Source(str, Enum):
    USER_CORRECTION = "USER_CORRECTION"
    USER_STATEMENT = "USER_STATEMENT"
    AGENT_ASSERTION = "AGENT_ASSERTION"
    EXTRACTION = "EXTRACTION"
    INFERENCE = "INFERENCE"
    IMPORT = "IMPORT"


class Strategy(str, Enum):
    RECENCY = "RECENCY"
    CONFIDENCE = "CONFIDENCE"
    SOURCE_PRIORITY = "SOURCE_PRIORITY"
    MANUAL = "MANUAL"
