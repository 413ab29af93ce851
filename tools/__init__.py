"""citeloop.tools: what acts. Tools return typed observations; this layer imports only citeloop.events."""

from ._corpus import Corpus as Corpus
from ._corpus import CorpusError as CorpusError
from ._protocol import Tool as Tool

__all__ = ("Corpus", "CorpusError", "Tool")
