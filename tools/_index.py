"""A full-text index of a corpus in SQLite FTS5, ranked by BM25.

Blocking SQLite calls run inline on the event loop: opening a page is one primary-key
lookup (microseconds) and a search is a few milliseconds even at 100,000 pages (see
`bench/search.py`), less than a thread hop would add. The runtime wraps every tool call
in a timeout anyway.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from citeloop.events import Hit

from ._query import code_phrases, phrase, plain
from ._query import query_words as query_words

# 2: strict decoding, notes (the build report) in meta; 3: HTML keeps its structure; 4: bold titles;
# 8: section-title divs as headings; 9: a Sphinx permalink as one pilcrow; 10: a blockquote indented as
# a description; 16: a <pre> block's lines kept (11-15 were never released)
INDEX_VERSION = "16"
_CHEAP_DF = 1000  # a word in fewer pages than this is always scored (see `_selective`)
# Up to this many pages a search weighs words as Lucene does (`SearchIndex._small_search`).
SMALL_CORPUS = 5000
# A query this short may be a page's title (`SearchIndex._titled`); a question never is one.
_TITLE_WORDS = 8
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
_TOKENIZER = "porter unicode61 remove_diacritics 2"


@dataclass(frozen=True, slots=True)
class Document:
    """One page of a corpus: the URL it answers to, its title and its plain-text body."""

    url: str
    title: str
    body: str


class SearchIndex:
    """The pages and their FTS5 index in one SQLite database (a file, or memory)."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None) -> None:
        self._db = connection
        self.path = path
        # One connection, shared: a lock makes it safe if a caller moves work to threads.
        self._lock = threading.Lock()
        self._stems: dict[str, str] = {}
        self.count = int(self._db.execute("SELECT count(*) FROM pages").fetchone()[0])
        self._db.execute(f"CREATE VIRTUAL TABLE temp.qtok USING fts5(t, tokenize='{_TOKENIZER}')")
        self._db.execute("CREATE VIRTUAL TABLE temp.qvocab USING fts5vocab(temp, qtok, instance)")

    # -- building -------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        documents: Iterable[Document],
        path: Path | None,
        manifest: str,
        *,
        notes: Callable[[], str] | None = None,
        checkpoint: Callable[[], None] | None = None,
    ) -> SearchIndex:
        """Index `documents` into a new database at `path` (atomically replaced), or in memory.

        `notes()` is called once the documents are read, and its text kept with the index
        (the build report of a corpus). `checkpoint` is called while SQLite works (every
        thousand virtual-machine steps): an exception it raises stops the build.
        """
        if path is None:
            db = sqlite3.connect(":memory:", check_same_thread=False)
            _fill(db, documents, manifest, notes, checkpoint)
            return cls(db, None)
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        scratch.unlink(missing_ok=True)
        db = sqlite3.connect(scratch)
        try:
            _fill(db, documents, manifest, notes, checkpoint)
        except BaseException:
            db.close()
            scratch.unlink(missing_ok=True)
            raise
        db.close()
        # Readers see the old index or the new one, never half of one.
        os.replace(scratch, path)
        return cls(sqlite3.connect(path, check_same_thread=False), path)

    @classmethod
    def reuse(cls, path: Path, manifest: str) -> SearchIndex | None:
        """The stored index at `path` if it was built from the same files (same manifest), else None."""
        if not path.is_file():
            return None
        try:
            db = sqlite3.connect(path, check_same_thread=False)
            row = db.execute("SELECT value FROM meta WHERE key = 'manifest'").fetchone()
        except sqlite3.DatabaseError:
            return None
        if row is None or row[0] != manifest:
            db.close()
            return None
        return cls(db, path)

    def close(self) -> None:
        """Release the database connection."""
        self._db.close()

    @property
    def notes(self) -> str:
        """The text kept with the index when it was built ("" if none)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'notes'").fetchone()
        return "" if row is None else str(row[0])

    # -- reading --------------------------------------------------------------------------

    def page(self, url: str) -> Document | None:
        """The page held under exactly this URL, or None."""
        with self._lock:
            row = self._db.execute("SELECT title, body FROM pages WHERE url = ?", (url,)).fetchone()
        return None if row is None else Document(url=url, title=row[0], body=row[1])

    def urls(self) -> list[str]:
        """Every URL the index holds, in insertion order."""
        with self._lock:
            return [row[0] for row in self._db.execute("SELECT url FROM pages ORDER BY id")]

    def search(self, query: str, limit: int) -> list[Hit]:
        """Pages ranked by BM25 for any of the query's words (score: higher is better).

        Up to `SMALL_CORPUS` pages, when a word of the query is in half the pages or more, the words
        are weighted as Lucene weighs them (`_small_search`): FTS5 gives such a word no weight at
        all, which on a corpus of a few pages is nearly every word.
        """
        words = query_words(query)
        if not words or limit <= 0:
            return []
        with self._lock:
            frequency = self._frequencies(words)
            scored = self._selective(words, frequency)
            # A word in most of a large corpus's pages is no title's (and would make this scan them all).
            titled = self._titled(query, words) if len(scored) == len(words) else []
            # FTS5 gives a word in n >= N / 2 of the N pages no weight: log((N - n + 0.5) / (n + 0.5)) <= 0.
            clamped = any(2 * frequency[word] >= self.count for word in scored)
            if self.count <= SMALL_CORPUS and clamped:
                ranked = self._small_search(scored, limit, frequency, code_phrases(query))
            else:
                # A name written as code ("compare_files", "--log-level") is also matched whole, as
                # the phrase of its words: the page that writes it moves up past pages that only share them.
                match = " OR ".join([*(phrase(w) for w in scored), *code_phrases(query)])
                rows = self._db.execute(
                    "SELECT p.url, p.title, snippet(fts, 1, '', '', '…', 24), bm25(fts, 2.0, 1.0) "
                    "FROM fts JOIN pages AS p ON p.id = fts.rowid "
                    "WHERE fts MATCH ? ORDER BY bm25(fts, 2.0, 1.0), p.id LIMIT ?",
                    (match, limit),
                ).fetchall()
                ranked = [
                    Hit(url=url, title=title, snippet=snippet, score=round(-score, 6))
                    for url, title, snippet, score in rows
                ]
        if not titled:
            return ranked
        # A page titled as the query asks ("Sigmund Freud") comes first, scored above every other
        # hit: the query names it, where pages about it ("Sigmund Freud Prize") only share its words.
        top = max((hit.score for hit in ranked), default=0.0) + 1.0
        first = [hit.model_copy(update={"score": round(top, 6)}) for hit in titled]
        named = {hit.url for hit in first}
        return [*first, *(hit for hit in ranked if hit.url not in named)][:limit]

    def _titled(self, query: str, words: list[str]) -> list[Hit]:
        """The pages whose title is the query, word for word (a trailing "(...)" aside: "Battle of
        Guam (1944)"), for a query of at most `_TITLE_WORDS` words; best BM25 on the title first."""
        asked = plain(query)
        if not asked or len(asked.split()) > _TITLE_WORDS:
            return []
        rows = self._db.execute(
            "SELECT p.url, p.title, snippet(fts, 1, '', '', '…', 24) FROM fts JOIN pages AS p "
            "ON p.id = fts.rowid WHERE fts MATCH ? ORDER BY bm25(fts, 1.0, 0.0), p.id LIMIT 20",
            ("title : (" + " AND ".join(phrase(w) for w in words) + ")",),
        ).fetchall()
        return [
            Hit(url=url, title=title, snippet=snippet, score=0.0)
            for url, title, snippet in rows
            if plain(_TRAILING_NOTE.sub("", title)) == asked
        ]

    def _small_search(
        self, words: list[str], limit: int, frequency: dict[str, int], phrases: Sequence[str] = ()
    ) -> list[Hit]:
        """BM25 with Lucene's inverse document frequency, log(1 + (N - n + 0.5) / (n + 0.5)), which
        stays positive for a word in most pages, where FTS5's log((N - n + 0.5) / (n + 0.5)) is
        clamped to 1e-6.

        FTS5's score is a sum over the query's words of idf(word) times a term-frequency part
        (with the same k1, b and column weights): one single-word query per word gives that part
        as score / idf, which is reweighted here. Exact, and cheap on a small corpus.
        """
        total = self.count
        scores: dict[int, float] = {}
        # (a code name's phrase, already quoted, weighs in as one more word: `code_phrases`)
        for word, quoted in [*((w, phrase(w)) for w in words), *((p, p) for p in phrases)]:
            n = frequency[word] if word in frequency else self._pages_matching(quoted)
            if n == 0:
                continue
            clamped = max(1e-6, math.log((total - n + 0.5) / (n + 0.5)))  # FTS5's own (fts5_aux.c)
            lucene = math.log(1.0 + (total - n + 0.5) / (n + 0.5))
            rows = self._db.execute("SELECT rowid, bm25(fts, 2.0, 1.0) FROM fts WHERE fts MATCH ?", (quoted,))
            for rowid, score in rows:
                scores[rowid] = scores.get(rowid, 0.0) + (-score / clamped) * lucene
        # Best first; a tie goes to the page indexed first, as FTS5's ORDER BY does.
        best = sorted(scores, key=lambda rowid: (-scores[rowid], rowid))[:limit]
        if not best:
            return []
        marks = ",".join("?" * len(best))
        shown = self._db.execute(
            "SELECT p.id, p.url, p.title, snippet(fts, 1, '', '', '…', 24) "
            f"FROM fts JOIN pages AS p ON p.id = fts.rowid WHERE fts MATCH ? AND fts.rowid IN ({marks})",
            (" OR ".join(phrase(w) for w in words), *best),
        ).fetchall()
        found = {rowid: (url, title, snippet) for rowid, url, title, snippet in shown}
        return [
            Hit(url=found[r][0], title=found[r][1], snippet=found[r][2], score=round(scores[r], 6))
            for r in best
        ]

    def _pages_matching(self, quoted: str) -> int:
        """How many pages an FTS5 phrase matches."""
        (count,) = self._db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (quoted,)).fetchone()
        return int(count)

    def _frequencies(self, words: list[str]) -> dict[str, int]:
        """How many pages hold each word (by its index term; 0 for a word no page holds)."""
        stems = self._stem(words)
        terms = sorted(set(stems.values()))  # two words may share a stem: one placeholder each term
        placeholders = ",".join("?" * len(terms))
        rows = dict(
            self._db.execute(f"SELECT term, n FROM df WHERE term IN ({placeholders})", terms).fetchall()
        )
        return {w: int(rows.get(stems[w], 0)) for w in words}

    def _selective(self, words: list[str], frequency: dict[str, int]) -> list[str]:
        """Drop words found in more than half of the pages (and in over 1,000), keeping the rarest one.

        FTS5 clamps the BM25 weight of such words to almost nothing, so they barely change
        the ranking, but an OR over them makes SQLite score nearly every page (hundreds of
        milliseconds at 100,000 pages). Below 1,000 pages scoring them costs little, and
        on a small corpus the page that holds them may be the one that matters.
        """
        kept = [w for w in words if frequency[w] * 2 <= self.count or frequency[w] <= _CHEAP_DF]
        return kept or [min(words, key=lambda w: (frequency[w], words.index(w)))]

    def _stem(self, words: list[str]) -> dict[str, str]:
        """Each word's index term, found by running the index's own tokenizer over it (cached)."""
        missing = [w for w in words if w not in self._stems]
        if missing:
            self._db.execute("DELETE FROM temp.qtok")
            self._db.executemany("INSERT INTO temp.qtok(rowid, t) VALUES (?, ?)", list(enumerate(missing)))
            for position, term in self._db.execute("SELECT doc, term FROM temp.qvocab"):
                if len(self._stems) > 100_000:
                    self._stems.clear()
                self._stems[missing[position]] = term
        return {w: self._stems.get(w, w) for w in words}


def _fill(
    db: sqlite3.Connection,
    documents: Iterable[Document],
    manifest: str,
    notes: Callable[[], str] | None,
    checkpoint: Callable[[], None] | None,
) -> None:
    if checkpoint is None:
        _fill_tables(db, documents, manifest, notes)
        return
    stopped: list[BaseException] = []

    def progress() -> int:
        # SQLite swallows what a progress handler raises: keep it, abort, and raise it after.
        try:
            checkpoint()
        except BaseException as exc:
            stopped.append(exc)
            return 1
        return 0

    db.set_progress_handler(progress, 1000)
    try:
        _fill_tables(db, documents, manifest, notes)
    except sqlite3.OperationalError:
        if stopped:
            raise stopped[0] from None
        raise
    finally:
        db.set_progress_handler(None, 0)


def _fill_tables(
    db: sqlite3.Connection, documents: Iterable[Document], manifest: str, notes: Callable[[], str] | None
) -> None:
    db.executescript(
        f"""
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                            body TEXT NOT NULL);
        CREATE VIRTUAL TABLE fts USING fts5(title, body, content='pages', content_rowid='id',
                                            tokenize='{_TOKENIZER}');
        CREATE TABLE df (term TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
        """
    )
    # Each page is indexed as it is inserted (not by one 'rebuild' at the end, which is as
    # fast but one long statement): the build can then stop between any two pages.
    db.execute(
        "CREATE TEMP TRIGGER index_page AFTER INSERT ON main.pages BEGIN "
        "INSERT INTO fts (rowid, title, body) VALUES (new.id, new.title, new.body); END"
    )
    # A URL held twice keeps its first page: the order of `documents` decides.
    db.executemany(
        "INSERT OR IGNORE INTO pages (url, title, body) VALUES (?, ?, ?)",
        ((d.url, d.title, d.body) for d in documents),
    )
    db.execute("DROP TRIGGER temp.index_page")
    # Document frequencies, stored once: fts5vocab computes them by scanning the index.
    db.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, fts, row)")
    db.execute("INSERT INTO df SELECT term, doc FROM temp.vocab")
    db.execute("INSERT INTO meta VALUES ('version', ?), ('manifest', ?)", (INDEX_VERSION, manifest))
    if notes is not None:
        db.execute("INSERT INTO meta VALUES ('notes', ?)", (notes(),))
    db.commit()
