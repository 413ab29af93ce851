"""What a tool returns, as typed data. Tool output is untrusted: it is stored, never obeyed."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Hit(_Frozen):
    """One search result."""

    url: str
    title: str
    snippet: str
    score: float


class SearchHits(_Frozen):
    """The result of a search: possibly no hits at all."""

    kind: Literal["search_hits"] = "search_hits"
    query: str
    hits: tuple[Hit, ...]


class AlreadySearched(_Frozen):
    """A repeated search, answered from the log instead of dispatching the tool again."""

    kind: Literal["already_searched"] = "already_searched"
    query: str
    hits: tuple[Hit, ...]


class Page(_Frozen):
    """A successfully opened page. `sha256` is the hex digest of the UTF-8 body, computed once when opened.

    `truncated_from` is set when the body was longer than the run's cap and was cut before
    it was recorded: the length the tool returned (the digest is of the stored body).
    """

    kind: Literal["page"] = "page"
    url: str
    title: str
    body: str
    sha256: str
    truncated_from: int | None = Field(default=None, exclude_if=lambda value: value is None)


class ToolError(_Frozen):
    """A tool that ran and failed in an expected way (`not_found`, `timeout`, `tool_raised`, ...)."""

    kind: Literal["tool_error"] = "tool_error"
    code: str
    message: str = ""
    url: str | None = None


class Text(_Frozen):
    """Free text returned by a custom tool."""

    kind: Literal["text"] = "text"
    text: str


Observation = Annotated[
    SearchHits | AlreadySearched | Page | ToolError | Text,
    Field(discriminator="kind"),
]
