"""A query's text as the index reads it: its words, its plain form, each word as an FTS5 string.

`query_words` is what a search matches (case-folded, stop words dropped unless nothing else is
left); `plain` compares a query with a title word for word; `phrase` quotes a word so that FTS5
never reads user text as an operator ("OR", "NEAR", "title:").
"""

from __future__ import annotations

import re
import unicodedata

# Query words that carry no topic. Dropping them keeps an OR query from matching every page.
_STOPWORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    )
)


def query_words(text: str) -> list[str]:
    """The words of a query, case-folded; stop words dropped unless nothing else is left."""
    words: list[str] = []
    token: list[str] = []
    for char in unicodedata.normalize("NFKC", text).casefold() + " ":
        if char.isalnum():
            token.append(char)
        elif token:
            words.append("".join(token))
            token = []
    content = [w for w in words if w not in _STOPWORDS]
    return list(dict.fromkeys(content or words))


def plain(text: str) -> str:
    """`text` as comparable words: NFKC, case-folded, no punctuation ("Guns N' Roses": "guns n roses")."""
    return " ".join(re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold()))


def phrase(word: str) -> str:
    """`word` as an FTS5 string: quoted, so that no word is read as an operator ("OR", "NEAR")."""
    return '"' + word.replace('"', '""') + '"'
