from pydantic import Field

from .base_model import BaseModel
from .fragments import ReceiptFields


class EraseEpisodes(BaseModel):
    erase_episodes: "EraseEpisodesEraseEpisodes" = Field(alias="eraseEpisodes")


EraseEpisodesEraseEpisodes = ReceiptFields
EraseEpisodes.model_rebuild()
