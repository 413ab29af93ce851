"""The viewer without a browser: its guards (binding, token, host, read-only), the export, the cut bodies."""

from __future__ import annotations

import hashlib
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers.cli import in_ci

if not in_ci():
    pytest.importorskip("starlette", reason="the web-ui extra is not installed (pip install -e '.[dev]')")
from citeloop.events import Answered, Locator, Page, ToolObserved, UsageError
from citeloop.runtime import web
from citeloop.runtime.web import MAX_BODY_CHARS, check_binding
from citeloop.runtime.web._bodies import QUOTE_CONTEXT, evidence, segments
from citeloop.runtime.web._security import CSP
from helpers.cli import run_citeloop
from helpers.postgres import postgres_url as postgres_url
from helpers.web import QuotingPolicy, RefusingPolicy, page_of, record, serving

ACME = page_of(
    "https://wiki.example/acme",
    "Acme <b>Robotics</b>",
    "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
    before="<script>alert(1)</script>\n",
    after='\n<img src=x onerror="alert(2)"> <a href="javascript:alert(3)">x</a>',
)
TOKEN = "k3y-for-tests-0123456789"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def fetch(
    url: str, method: str = "GET", headers: dict[str, str] | None = None, follow: bool = True
) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, method=method, headers=headers or {})
    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def test_the_public_surface_is_what_all_claims() -> None:
    assert isinstance(web.__all__, tuple)
    assert list(web.__all__) == sorted(web.__all__)
    public = {name for name in vars(web) if not name.startswith("_")}
    submodules = {name for name in public if type(getattr(web, name)).__name__ == "module"}
    assert public - submodules == set(web.__all__)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_needs_no_token(host: str) -> None:
    check_binding(host, None)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "viewer.example"])
def test_a_host_beyond_loopback_is_refused_without_a_token(host: str) -> None:
    with pytest.raises(UsageError, match="--token"):
        check_binding(host, None)
    check_binding(host, TOKEN)


@pytest.mark.parametrize("token", ["short", "has spaces in it, 1234", "semi;colon-0123456789"])
def test_a_weak_or_odd_token_is_refused(token: str) -> None:
    with pytest.raises(UsageError, match="16 or more"):
        check_binding("0.0.0.0", token)


def test_serve_refuses_a_public_host_without_a_token(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path}/runs.db"
    done = run_citeloop("serve", "--host", "0.0.0.0", "--store", store, cwd=tmp_path)
    assert done.returncode == 1
    assert "give a --token too" in done.stderr


def test_every_response_carries_the_security_headers_and_no_route_writes(store_url: str) -> None:
    run = record(store_url, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    with serving(store_url) as base:
        for path in ("/", f"/runs/{run.run_id}", f"/runs/{run.run_id}/part", "/part", "/static/live.js"):
            status, headers, _ = fetch(base + path)
            assert status == 200, path
            assert headers["content-security-policy"] == CSP
            assert headers["x-content-type-options"] == "nosniff"
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            for path in ("/", f"/runs/{run.run_id}", f"/runs/{run.run_id}/events"):
                assert fetch(base + path, method)[0] == 405, (method, path)
        status, headers, _ = fetch(base + "/runs/no-such-run")
        assert status == 404 and headers["content-security-policy"] == CSP
        assert fetch(base + "/runs/no-such-run/events")[0] == 404
        # Bound to loopback, a request naming another host (DNS rebinding) is refused.
        assert fetch(base + "/", headers={"Host": "attacker.example"})[0] == 400


def test_the_page_escapes_what_the_log_says(store_url: str) -> None:
    run = record(store_url, "Who founded <i>Acme</i> Robotics?", QuotingPolicy(ACME), ACME)
    record(store_url, '"><script>alert(4)</script>', RefusingPolicy(), ACME)
    with serving(store_url) as base:
        _, _, listing = fetch(base + "/")
        _, _, shown = fetch(f"{base}/runs/{run.run_id}")
    assert "&lt;script&gt;alert(4)&lt;/script&gt;" in listing and "<script>alert" not in listing
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown
    assert "<img" not in shown and "<b>" not in shown and "<i>" not in shown
    assert shown.count("<script") == 1  # the app's own file


def test_a_token_is_required_and_a_link_with_it_sets_a_cookie(store_url: str) -> None:
    record(store_url, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    with serving(store_url, token=TOKEN) as base:
        status, headers, _ = fetch(base + "/")
        assert status == 401 and headers["content-security-policy"] == CSP
        assert fetch(base + "/static/style.css")[0] == 401
        assert fetch(base + "/?token=wrong-token-0123456789")[0] == 401
        status, headers, _ = fetch(f"{base}/?q=acme&token={TOKEN}", follow=False)
        assert status == 303 and headers["location"] == "/?q=acme"  # the token leaves the address bar
        assert headers["set-cookie"] == f"citeloop_token={TOKEN}; HttpOnly; SameSite=Strict; Path=/"
        status, headers, _ = fetch(f"{base}//evil.example/?token={TOKEN}", follow=False)
        assert status == 303 and headers["location"] == "/evil.example/"  # never to another site
        assert fetch(base + "/", headers={"Cookie": f"citeloop_token={TOKEN}"})[0] == 200
        assert fetch(base + "/", headers={"Authorization": f"Bearer {TOKEN}"})[0] == 200


def test_show_html_writes_one_self_contained_page(store_url: str, tmp_path: Path) -> None:
    run = record(store_url, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    out = tmp_path / "run.html"
    done = run_citeloop("show", run.run_id[:8], "--html", "-o", str(out), "--store", store_url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert "<script" not in html and "<link" not in html
    assert re.search(r"<[a-z]+[^>]*\ssrc=", html) is None  # nothing to load
    assert set(re.findall(r'href="([^"]*)"', html)) == {"#q0"}
    assert '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;' in html
    assert f'<mark class="quote" id="q0">{ACME.sentence}</mark>' in html
    assert 'href="#q0"' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _observed(body: str, url: str = "https://x.example/") -> ToolObserved:
    page = Page(url=url, title="t", body=body, sha256=hashlib.sha256(body.encode()).hexdigest())
    return ToolObserved(run_id="r", seq=1, at="2026-01-15T09:30:00Z", step=0, call_id="c", tool="open",
                        input=url, observation=page)


def test_a_long_body_shows_its_head_and_each_quote_in_context() -> None:
    body = "a" * (MAX_BODY_CHARS + 50_000) + "THE QUOTE" + "b" * 1_000_000
    start = body.index("THE QUOTE")
    parts, cut = segments(body, [(start, start + 9, 0)])
    assert cut
    assert sum(len(part.text) for part in parts) == MAX_BODY_CHARS + 2 * QUOTE_CONTEXT + 9
    assert sum(part.skipped for part in parts) + sum(len(part.text) for part in parts) == len(body)
    assert [part.text for part in parts if part.quote is not None] == ["THE QUOTE"]


def test_a_short_body_is_shown_whole() -> None:
    parts, cut = segments("one two three", [(4, 7, 0)])
    assert not cut
    assert [(p.text, p.quote) for p in parts] == [("one ", None), ("two", 0), (" three", None)]


def test_a_locator_that_misses_its_quote_is_reported_not_marked() -> None:
    observed = _observed("Ada Ortiz founded it. Kenji Ito runs it.")
    digest = observed.observation.sha256  # type: ignore[union-attr]
    good = Locator(url="https://x.example/", sha256=digest, start=0, end=9, start_utf16=0, end_utf16=9,
                   quote="Ada Ortiz")
    wrong = good.model_copy(update={"quote": "Kenji Ito"})
    elsewhere = good.model_copy(update={"sha256": "0" * 64})
    inside = good.model_copy(update={"start": 4, "end": 9, "quote": "Ortiz"})
    answered = Answered(run_id="r", seq=2, at="2026-01-15T09:30:01Z", step=1, answer="Ada Ortiz",
                        citations=("https://x.example/",), evidence="Ada Ortiz",
                        locators=(good, wrong, elsewhere, inside), answer_sha256="0" * 64)
    found = evidence([observed, answered])
    assert [c.problem for c in found.cited] == [
        "", "the body at these offsets is not the quote", "no opened page has this URL and digest", ""
    ]
    assert [c.anchor for c in found.cited] == [0, None, None, 0]  # the overlapped quote links to the mark
    assert [p.quote for p in found.pages[0].segments if p.quote is not None] == [0]
    assert found.pages[0].digest_ok


def test_show_html_names_the_store_without_its_password(postgres_url: str, tmp_path: Path) -> None:
    # The exported file is meant for bug reports: the store URL on it must not carry a secret.
    secret = "s3cret-pw-never-shown"
    with_password = postgres_url.replace("postgresql://postgres@", f"postgresql://postgres:{secret}@", 1)
    assert secret in with_password  # trust auth takes any password
    run = record(with_password, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    out = tmp_path / "run.html"
    done = run_citeloop("show", run.run_id, "--html", "-o", str(out), "--store", with_password, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert ACME.sentence in html and secret not in html


def _first_lines(url: str, headers: dict[str, str], wanted: str) -> list[str]:
    """The lines of an event stream up to the first that starts with `wanted` (then hang up)."""
    request = urllib.request.Request(url, headers=headers)
    lines: list[str] = []
    with urllib.request.urlopen(request, timeout=30) as response:
        for raw in response:
            lines.append(raw.decode().rstrip("\n"))
            if lines[-1].startswith(wanted):
                return lines
    return lines


def test_a_reconnecting_list_stream_goes_on_from_its_last_event_id(store_url: str) -> None:
    record(store_url, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    with serving(store_url) as base:
        # A browser that reconnects names the last position it was told of: the stream goes on
        # from there (the run's later events), not from the store's history again.
        lines = _first_lines(base + "/events", {"Last-Event-ID": "2"}, "id:")
    assert lines[-1] == "id: 3"


def test_the_live_stream_of_a_tampered_run_just_ends(store_url: str) -> None:
    import sqlite3

    run = record(store_url, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    path = store_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE events SET body = CAST(replace(CAST(body AS TEXT), 'Acme', 'Acmf') AS BLOB) "
            "WHERE run_id = ? AND seq = 1",
            (run.run_id,),
        )
    with serving(store_url) as base:
        assert fetch(f"{base}/runs/{run.run_id}")[0] == 200  # the page shows the log as it is, judged
        lines = _first_lines(f"{base}/runs/{run.run_id}/events", {}, "event:")
    assert lines[-1] == "event: end"
