from pydantic import Field

from .base_model import BaseModel
from .fragments import ReceiptFields


class EraseSubject(BaseModel):
    erase_subject: "EraseSubjectEraseSubject" = Field(alias="eraseSubject")


EraseSubjectEraseSubject = ReceiptFields
EraseSubject.model_rebuild()
