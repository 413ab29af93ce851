"""citeloop.tools: what acts. Tools return typed observations; this layer imports only citeloop.events."""

from ._cache import index_cache_dir as index_cache_dir
from ._corpus import Corpus as Corpus
from ._documents import CorpusError as CorpusError
from ._files import SkippedFile as SkippedFile
from ._protocol import Tool as Tool

__all__ = ("Corpus", "CorpusError", "SkippedFile", "Tool", "index_cache_dir")
