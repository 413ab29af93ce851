"""The SSRF guard: every payload below is refused with a named code, and public URLs pass.

No test here opens a connection: the guard is pure parsing and address classification.
"""

from __future__ import annotations

import ipaddress

import pytest
from citeloop.tools._web_guard import Blocked, GuardOptions, address_class, check_url, normalize_host

HTTP = GuardOptions(allow_http=True)

# (payload, the code it must be refused with). Plain http is enabled for these, so that
# each is refused for its host, not merely for its scheme.
SSRF_PAYLOADS: tuple[tuple[str, str], ...] = (
    ("http://127.0.0.1/", "blocked: private_address"),
    ("http://127.1/", "blocked: private_address"),
    ("http://127.0.1/", "blocked: private_address"),
    ("http://2130706433/", "blocked: private_address"),  # decimal
    ("http://0177.0.0.1/", "blocked: private_address"),  # octal
    ("http://0x7f.0.0.1/", "blocked: private_address"),  # hex part
    ("http://0x7f000001/", "blocked: private_address"),  # hex whole
    ("http://017700000001/", "blocked: private_address"),  # octal whole
    ("http://0/", "blocked: private_address"),
    ("http://0.0.0.0/", "blocked: private_address"),
    ("http://[::]/", "blocked: private_address"),
    ("http://[::1]/", "blocked: private_address"),
    ("http://[::ffff:127.0.0.1]/", "blocked: private_address"),
    ("http://[::ffff:7f00:1]/", "blocked: private_address"),
    ("http://[0:0:0:0:0:ffff:169.254.169.254]/", "blocked: private_address"),
    ("http://[::127.0.0.1]/", "blocked: private_address"),  # IPv4-compatible
    ("http://[64:ff9b::127.0.0.1]/", "blocked: private_address"),  # NAT64
    ("http://[64:ff9b::a9fe:a9fe]/", "blocked: private_address"),  # NAT64 of the metadata address
    ("http://[2002:7f00:1::]/", "blocked: private_address"),  # 6to4 of 127.0.0.1
    ("http://[2002:c0a8:101::1]/", "blocked: private_address"),  # 6to4 of 192.168.1.1
    ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "blocked: private_address"),  # Teredo of 127.0.0.1
    ("http://[fe80::1]/", "blocked: private_address"),
    ("http://[fc00::1]/", "blocked: private_address"),
    ("http://[ff02::1]/", "blocked: private_address"),
    ("http://[fe80::1%25eth0]/", "blocked: host"),  # zone id
    ("http://localhost/", "blocked: private_address"),
    ("http://localhost./", "blocked: private_address"),
    ("http://LOCALHOST/", "blocked: private_address"),
    ("http://api.localhost/", "blocked: private_address"),
    ("http://169.254.169.254/latest/meta-data/", "blocked: private_address"),
    ("http://169.254.169.254./", "blocked: private_address"),
    ("http://10.0.0.1/", "blocked: private_address"),
    ("http://172.16.0.1/", "blocked: private_address"),
    ("http://192.168.0.1/", "blocked: private_address"),
    ("http://100.64.0.1/", "blocked: private_address"),  # shared address space (CGNAT)
    ("http://224.0.0.1/", "blocked: private_address"),  # multicast
    ("http://240.0.0.1/", "blocked: private_address"),  # reserved
    ("http://255.255.255.255/", "blocked: private_address"),
    ("http://%31%32%37.0.0.1/", "blocked: private_address"),  # %-encoded host
    ("http://%6c%6f%63%61%6c%68%6f%73%74/", "blocked: private_address"),  # %-encoded localhost
    ("http://127.0.0.1%2f@example.com/", "blocked: credentials"),
    ("http://user:pass@example.com/", "blocked: credentials"),
    ("http://example.com@127.0.0.1/", "blocked: credentials"),
    ("http://example.com%40127.0.0.1/", "blocked: credentials"),  # %-encoded userinfo
    ("http://example.com\\@127.0.0.1/", "blocked: malformed"),  # a backslash browsers read as /
    ("http://127.0.0.1 .example.com/", "blocked: malformed"),
    # fullwidth letters, which IDNA folds to "localhost"
    ("http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/", "blocked: private_address"),
    ("http://①②⑦.0.0.1/", "blocked: private_address"),  # enclosed digits fold to 127.0.0.1 (IDNA)
    ("http://1.2.3.4.5/", "blocked: host"),
    ("http://0x1g.0.0.1/", "blocked: host"),
    ("http://256.0.0.1/", "blocked: host"),
    ("http:///etc/passwd", "blocked: host"),
    ("http://example.com:0/", "blocked: port"),
    ("http://example.com:99999/", "blocked: port"),
    ("file:///etc/passwd", "blocked: scheme"),
    ("gopher://127.0.0.1:6379/_INFO", "blocked: scheme"),
    ("ftp://example.com/", "blocked: scheme"),
    ("dict://127.0.0.1:11211/stat", "blocked: scheme"),
    ("javascript:alert(1)", "blocked: scheme"),
    ("//127.0.0.1/", "blocked: scheme"),
)


def test_there_are_at_least_forty_payloads() -> None:
    assert len(SSRF_PAYLOADS) >= 40


@pytest.mark.parametrize(("payload", "code"), SSRF_PAYLOADS, ids=[p for p, _ in SSRF_PAYLOADS])
def test_each_ssrf_payload_is_refused_with_its_code(payload: str, code: str) -> None:
    with pytest.raises(Blocked) as caught:
        check_url(payload, HTTP)
    assert caught.value.code == code, caught.value


@pytest.mark.parametrize("payload", [p for p, c in SSRF_PAYLOADS if c == "blocked: private_address"])
def test_https_payloads_are_refused_too(payload: str) -> None:
    with pytest.raises(Blocked) as caught:
        check_url("https" + payload.removeprefix("http"), GuardOptions())
    assert caught.value.code == "blocked: private_address"


def test_http_is_refused_unless_enabled() -> None:
    with pytest.raises(Blocked) as caught:
        check_url("http://example.com/", GuardOptions())
    assert caught.value.code == "blocked: scheme"
    assert check_url("http://example.com/", HTTP).host == "example.com"


@pytest.mark.parametrize(
    ("url", "host", "port", "target"),
    [
        ("https://Example.COM./a?b=1", "example.com", 443, "/a?b=1"),
        ("https://example.com", "example.com", 443, "/"),
        ("https://bücher.example:8443/x", "xn--bcher-kva.example", 8443, "/x"),
        ("https://93.184.216.34/", "93.184.216.34", 443, "/"),
        ("https://[2606:4700::1111]/", "2606:4700::1111", 443, "/"),
        ("https://1.1.1.1/", "1.1.1.1", 443, "/"),
        ("https://0x01010101/", "1.1.1.1", 443, "/"),  # a public address in hex is still that address
    ],
)
def test_public_urls_pass_with_their_host_normalized(url: str, host: str, port: int, target: str) -> None:
    checked = check_url(url, GuardOptions())
    assert (checked.host, checked.port, checked.target) == (host, port, target)


def test_allow_hosts_admits_a_named_private_host_only() -> None:
    options = GuardOptions(allow_http=True, allow_hosts=frozenset({"127.0.0.1", "intranet.test.", "::1"}))
    assert check_url("http://127.0.0.1:8080/", options).address == ipaddress.ip_address("127.0.0.1")
    assert check_url("http://[::1]:8080/", options).host == "::1"
    assert check_url("http://INTRANET.test/", options).host == "intranet.test"
    assert options.trusted("intranet.test")
    for other in ("http://127.0.0.2/", "http://localhost/", "http://2130706434/"):
        with pytest.raises(Blocked):
            check_url(other, options)


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("10.1.2.3", "private"),
        ("169.254.1.1", "link-local"),
        ("0.0.0.0", "unspecified"),
        ("::ffff:10.0.0.1", "IPv4-mapped (10.0.0.1)"),
        ("64:ff9b::1.1.1.1", "NAT64 (1.1.1.1)"),
        ("2002:0a00:0001::", "6to4 of 10.0.0.1 (private)"),
    ],
)
def test_address_classes_are_named(address: str, reason: str) -> None:
    assert address_class(ipaddress.ip_address(address)) == reason


@pytest.mark.parametrize("address", ["1.1.1.1", "93.184.216.34", "2606:4700::1111", "2002:0101:0101::1"])
def test_public_addresses_have_no_class(address: str) -> None:
    assert address_class(ipaddress.ip_address(address)) is None


def test_normalize_host_refuses_a_double_encoded_host() -> None:
    with pytest.raises(Blocked):
        normalize_host("%31")


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("https://example.com:\u00b2/", "blocked: port"),  # "²".isdigit() holds; int("²") raises
        ("https://example.com:\u0664\u0664\u0663/", "blocked: port"),  # Arabic-Indic 443
        ("https://93.184.216.34/" + "a" * 70_000, "blocked: malformed"),  # httpx's own error otherwise
    ],
    ids=["superscript-digit", "arabic-indic-digits", "overlong"],
)
def test_odd_ports_and_overlong_urls_are_refused_not_raised(url: str, code: str) -> None:
    with pytest.raises(Blocked) as caught:
        check_url(url, GuardOptions())
    assert caught.value.code == code
