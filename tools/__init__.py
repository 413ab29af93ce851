"""citeloop.tools: what acts. Tools return typed observations; this layer imports only citeloop.events."""

from ._attachments import Attachable as Attachable
from ._attachments import Attachment as Attachment
from ._attachments import AttachmentError as AttachmentError
from ._attachments import AttachmentLimits as AttachmentLimits
from ._attachments import admit as admit
from ._attachments import admit_all as admit_all
from ._cache import index_cache_dir as index_cache_dir
from ._corpus import Corpus as Corpus
from ._documents import CorpusError as CorpusError
from ._extract import Extracted as Extracted
from ._extract import ExtractError as ExtractError
from ._extract import extract as extract
from ._files import SkippedFile as SkippedFile
from ._protocol import Tool as Tool
from ._searx import WebSearch as WebSearch
from ._web_open import WebOpen as WebOpen

__all__ = (
    "Attachable",
    "Attachment",
    "AttachmentError",
    "AttachmentLimits",
    "Corpus",
    "CorpusError",
    "ExtractError",
    "Extracted",
    "SkippedFile",
    "Tool",
    "WebOpen",
    "WebSearch",
    "admit",
    "admit_all",
    "extract",
    "index_cache_dir",
)
