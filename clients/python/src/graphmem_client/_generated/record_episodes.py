from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class RecordEpisodes(BaseModel):
    record_episodes: "RecordEpisodesRecordEpisodes" = Field(alias="recordEpisodes")


class RecordEpisodesRecordEpisodes(BaseModel):
    created: int
    duplicates: int
    episodes: list["RecordEpisodesRecordEpisodesEpisodes"]


class RecordEpisodesRecordEpisodesEpisodes(BaseModel):
    id: str
    external_id: Optional[str] = Field(alias="externalId")


RecordEpisodes.model_rebuild()
RecordEpisodesRecordEpisodes.model_rebuild()
