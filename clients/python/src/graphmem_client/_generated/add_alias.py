from pydantic import Field

from .base_model import BaseModel


class AddAlias(BaseModel):
    add_alias: "AddAliasAddAlias" = Field(alias="addAlias")


class AddAliasAddAlias(BaseModel):
    id: str
    name: str
    aliases: list[str]


AddAlias.model_rebuild()
