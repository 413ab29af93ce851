"""What a tool returns, as typed data. Tool output is untrusted: it is stored, never obeyed."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from ._evidence import Calculation


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


class PageSource(_Frozen):
    """Where a page fetched from the web came from: its identity as evidence (docs/events.md).

    The page's `url` is the final URL, after redirects. `bytes_sha256` is the digest of the
    `size` bytes received (after the content encoding, before any charset decoding); `extractor`
    and `extractor_version` name what turned them into the page's body.
    """

    retrieved_at: AwareDatetime
    status: int
    media_type: str
    size: int
    bytes_sha256: str
    extractor: str
    extractor_version: str


class Page(_Frozen):
    """A successfully opened page. `sha256` is the hex digest of the UTF-8 body, computed once when opened.

    `truncated_from` is set when the body was longer than the run's cap and was cut before
    it was recorded: the length the tool returned (the digest is of the stored body).
    `source` is set for a page fetched from the web (absent for a corpus page).
    """

    kind: Literal["page"] = "page"
    url: str
    title: str
    body: str
    sha256: str
    truncated_from: int | None = Field(default=None, exclude_if=lambda value: value is None)
    source: PageSource | None = Field(default=None, exclude_if=lambda value: value is None)


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
    SearchHits | AlreadySearched | Page | ToolError | Text | Calculation,
    Field(discriminator="kind"),
]
