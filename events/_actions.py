"""What a policy asks for, in the imperative: call a tool, or finish."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CallTool(_Frozen):
    """Run the named tool with one string argument (a search query, a URL, ...)."""

    kind: Literal["call"] = "call"
    tool: str
    input: str


class Finish(_Frozen):
    """End the run with a payload that the grounding gate checks.

    The payload stays a raw JSON object on purpose: a finish with the wrong keys or
    types is a *gate* verdict (`keys`, `types`), recorded as `FinishRejected`, not a
    parse failure.
    """

    kind: Literal["finish"] = "finish"
    payload: dict[str, JsonValue]


Action = Annotated[CallTool | Finish, Field(discriminator="kind")]
