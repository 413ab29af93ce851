"""Bytes of a corpus file to text, strictly: UTF-8, a byte-order mark, or a detected encoding - or refused.

Nothing is decoded with replacement characters. A file holding NUL bytes, or whose text
would be more than 1% control characters, is binary (an executable renamed `.html`, random
bytes). A file that is not UTF-8 is handed to `charset-normalizer`; when it finds no
encoding that fits, the file is refused. Both outcomes are listed in the build report
(docs/corpus.md), never indexed.
"""

from __future__ import annotations

import codecs
import re
from typing import Final

from charset_normalizer import from_bytes

# Each byte-order mark and the codec that reads text behind it; also read by the attachment
# readers (tools/_attachment_readers.py). Longest marks first: the UTF-32 LE mark begins with
# the UTF-16 LE one.
BOMS: Final = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# C0 controls but tab, newline, vertical tab, form feed and carriage return; DEL; the C1 controls.
_CONTROL: Final = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
# charset-normalizer ranks cp1250 and cp1252 alike on most Western text and picks the first
# it tried; Windows-1252 is what the WHATWG encoding standard reads Latin-1 as, so it wins ties.
_PREFERRED: Final = ("utf_8", "cp1252", "latin_1")


class Undecodable(Exception):
    """Raised when a file's bytes are not text: `reason` is "binary" or "undecodable"."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def decode_text(data: bytes) -> tuple[str, str]:
    """`(text, encoding)` of a file's bytes; raises `Undecodable` for binary or unknown bytes."""
    for bom, encoding in BOMS:
        if data.startswith(bom):
            try:
                return _checked(data.decode(encoding), encoding)
            except UnicodeDecodeError as exc:
                raise Undecodable("undecodable", f"not valid {encoding} after its byte-order mark") from exc
    if b"\x00" in data:
        raise Undecodable("binary", "holds NUL bytes")
    try:
        return _checked(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        raise Undecodable("undecodable", "not UTF-8, and no other text encoding fits")
    encoding = best.encoding
    tied = [m.encoding for m in matches if (m.chaos, m.coherence) == (best.chaos, best.coherence)]
    for preferred in _PREFERRED:
        if preferred in tied:
            encoding = preferred
            break
    try:
        return _checked(data.decode(encoding), encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise Undecodable("undecodable", f"not UTF-8, and not valid {encoding} either") from exc


def _checked(text: str, encoding: str) -> tuple[str, str]:
    sample = text[:65536]
    controls = len(_CONTROL.findall(sample))
    if controls * 100 > len(sample):
        raise Undecodable("binary", f"{controls} control characters in its first {len(sample)}")
    return text, encoding
