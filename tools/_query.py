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


# A token written as code: words joined by "_", "::" or ".", or a flag ("--log-level").
_CODE_NAME = re.compile(r"(?<!\S)(?:--?[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+|\w+(?:(?:_|::|\.)\w+)+)")


def code_phrases(query: str) -> list[str]:
    """Each name of `query` written as code, as an FTS5 phrase of its words ("compare_files" ->
    '"compare files"'); a name of one word is matched by that word already."""
    found = []
    for name in _CODE_NAME.findall(query):
        parts = query_words(name)
        if len(parts) > 1:
            found.append(phrase(" ".join(parts)))
    return list(dict.fromkeys(found))
