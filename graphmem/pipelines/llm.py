"""The one door to a language model: any OpenAI-compatible chat-completions endpoint (OpenAI,
vLLM, Ollama, LM Studio…) through the ``openai`` client.

Structured output degrades gracefully, because local servers differ in what they accept:
a JSON schema (``response_format: json_schema``), else JSON mode (``json_object``), else the
instructions alone. In ``auto`` mode the first request that the endpoint rejects with a 400
moves to the next mode, and the process remembers what worked. Whatever comes back is parsed
with ``json.loads`` and validated with pydantic, never evaluated.

Errors carry no prompt or completion text (they end up in job records and logs).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from graphmem.core.config import Settings
from graphmem.core.errors import LLMError, LLMRefused
from graphmem.observability.tracing import Tracing

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)
MODES = ("json_schema", "json_object", "prompt")


@dataclass(frozen=True)
class Usage:
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.calls + other.calls, self.tokens_in + other.tokens_in,
                     self.tokens_out + other.tokens_out)

    def cost_usd(self, settings: Settings) -> float:
        return (self.tokens_in * settings.llm_input_usd_per_million
                + self.tokens_out * settings.llm_output_usd_per_million) / 1e6


class LLM:
    def __init__(self, settings: Settings, tracing: Tracing) -> None:
        assert settings.llm_model is not None
        # Imported here, once an LLM is configured: the client's types took 0.8 s of every
        # process start (`graphmem serve`, each CLI command), LLM or not.
        import openai

        self._tracing = tracing  # its app's: a call is a span of the job that made it
        self.model = settings.llm_model
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "unused"
        # Retries belong to the job queue (with backoff and a record), not to the client.
        self._client = openai.AsyncOpenAI(base_url=settings.llm_base_url, api_key=key,
                                          timeout=settings.llm_timeout_s, max_retries=0)
        self._auto = settings.llm_structured_output == "auto"
        self._mode: str = "json_schema" if self._auto else settings.llm_structured_output

    @property
    def name(self) -> str:
        return f"llm:{self.model}"

    async def json(self, system: str, user: str, schema_name: str,
                   model: type[M]) -> tuple[M, Usage]:
        """Ask for JSON matching ``model``'s schema; validated, or ``LLMError``."""
        import openai  # loaded by __init__: a lookup

        while True:
            try:
                text, usage = await self._chat(system, user, self._format(schema_name, model))
                break
            except openai.BadRequestError as exc:
                # Only a refusal of the output format moves down a mode; another 400 (a
                # prompt too long) says nothing about what the endpoint supports.
                if not self._auto or self._mode == MODES[-1] or not _about_format(exc):
                    raise LLMError("the LLM endpoint rejected the request (400)") from None
                self._mode = MODES[MODES.index(self._mode) + 1]
                log.warning("LLM endpoint rejected structured output; now using %s", self._mode)
        try:
            return model.model_validate(json.loads(_unfenced(text))), usage
        except json.JSONDecodeError as exc:
            raise LLMError(f"the LLM returned malformed JSON ({exc.msg} at {exc.pos})") from None
        except RecursionError:  # a steered model can nest past the parser's stack
            raise LLMError("the LLM returned malformed JSON (nested too deeply)") from None
        except ValidationError as exc:
            where = "; ".join(".".join(map(str, e["loc"])) + ": " + e["type"]
                              for e in exc.errors()[:3])
            raise LLMError(f"the LLM's JSON does not match the schema ({where})") from None

    async def text(self, system: str, user: str, max_tokens: int) -> tuple[str, Usage]:
        text, usage = await self._chat(system, user, {"max_tokens": max_tokens})
        if not text.strip():
            raise LLMError("the LLM returned an empty answer")
        return text.strip(), usage

    def _format(self, schema_name: str, model: type[BaseModel]) -> dict[str, Any]:
        if self._mode == "json_schema":
            return {"response_format": {"type": "json_schema", "json_schema": {
                "name": schema_name, "schema": model.model_json_schema(), "strict": False}}}
        if self._mode == "json_object":
            return {"response_format": {"type": "json_object"}}
        return {}

    async def _chat(self, system: str, user: str, extra: dict[str, Any]) -> tuple[str, Usage]:
        with self._tracing.span(f"chat {self.model}", {
                "gen_ai.operation.name": "chat", "gen_ai.request.model": self.model,
                "graphmem.llm.mode": self._mode}, kind="client") as span:
            text, usage = await self._complete(system, user, extra)
            if span is not None:
                span.set_attributes({"gen_ai.usage.input_tokens": usage.tokens_in,
                                     "gen_ai.usage.output_tokens": usage.tokens_out})
            return text, usage

    async def _complete(self, system: str, user: str,
                        extra: dict[str, Any]) -> tuple[str, Usage]:
        import openai  # loaded by __init__: a lookup

        try:
            response = await self._client.chat.completions.create(
                model=self.model, temperature=0, **extra,
                messages=[{"role": "system", "content": system},
                          {"role": "user", "content": user}])
        except openai.BadRequestError:
            raise
        except openai.APITimeoutError:
            raise LLMError("the LLM endpoint timed out") from None
        except openai.RateLimitError:
            raise LLMError("the LLM endpoint is rate limiting (429)") from None
        except openai.APIStatusError as exc:
            raise LLMError(f"the LLM endpoint answered {exc.status_code}") from None
        except openai.APIConnectionError:
            raise LLMError("the LLM endpoint is unreachable") from None
        if not response.choices:
            raise LLMError("the LLM returned no choices")
        choice = response.choices[0]
        if getattr(choice.message, "refusal", None) or choice.finish_reason == "content_filter":
            raise LLMRefused("the LLM refused to answer")
        usage = response.usage
        return choice.message.content or "", Usage(
            1, (usage.prompt_tokens or 0) if usage else 0,
            (usage.completion_tokens or 0) if usage else 0)


def _about_format(exc: openai.BadRequestError) -> bool:
    body = exc.body if isinstance(exc.body, dict) else {}
    text = f"{body.get('param', '')} {body.get('message', '')} {exc.message}".lower()
    return "response_format" in text or "json_schema" in text or "json mode" in text


def _unfenced(text: str) -> str:
    """Models without JSON mode like to wrap JSON in a Markdown code fence."""
    fenced = re.fullmatch(r"\s*```(?:json)?\s*(.*?)\s*```\s*", text, re.DOTALL)
    return fenced.group(1) if fenced else text
