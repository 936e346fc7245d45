from pydantic import Field

from .base_model import BaseModel
from .fragments import ReceiptFields


class EraseNamespace(BaseModel):
    erase_namespace: "EraseNamespaceEraseNamespace" = Field(alias="eraseNamespace")


EraseNamespaceEraseNamespace = ReceiptFields
EraseNamespace.model_rebuild()
