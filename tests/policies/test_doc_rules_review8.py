"""Review 8's wrong answers on invented catalog and function-table pages (a "Larchbase" manual).

- "What type is relowner?" was read as a "which" question and answered with the References cell
  ("lb_role.oid"); it asks for the row's Type cell, as "What is the type of the relowner column?" does.
- "What does factorial(7) return?" was answered with the row's description, and "What is the result
  of factorial(7)?" with the result of the example factorial(5): a call with literal arguments asks
  for that call's result, which only a row whose example is that very call gives.
- "What is the low value of smalldate?" crashed the policy: the noun was cut after escaping it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from helpers.doc_pages import ask, doc_answers, one_page, one_page_corpus

CATALOG = """
<div class="table"><table>
<thead><tr><th>Column name</th><th>Type</th><th>References</th><th>Description</th></tr></thead>
<tbody>
<tr><td><code class="structfield">relname</code></td><td><code class="type">name</code></td><td></td>
<td>Name of the relation</td></tr>
<tr><td><code class="structfield">relowner</code></td><td><code class="type">oid</code></td>
<td><code class="literal">lb_role.oid</code></td><td>Owner of the relation</td></tr>
<tr><td><code class="structfield">indkey</code></td><td><code class="type">int2vector</code></td>
<td><code class="literal">lb_attribute.attnum</code></td><td>An array of column numbers</td></tr>
</tbody></table></div>
"""

FUNCTIONS = """
<div class="table"><table>
<thead><tr><th>Function</th><th>Return Type</th><th>Description</th><th>Example</th><th>Result</th>
</tr></thead>
<tbody>
<tr><td><code class="function">factorial</code>(<code class="type">bigint</code>)</td><td>numeric</td>
<td>factorial</td><td><code class="literal">factorial(5)</code></td>
<td><code class="literal">120</code></td></tr>
<tr><td><code class="function">gcd</code>(a, b)</td><td>(same as argument types)</td>
<td>greatest common divisor</td><td><code class="literal">gcd(1071, 462)</code></td><td>21</td></tr>
</tbody></table></div>
"""


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review8") / "catalog", "lb_relation", CATALOG)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What type is relowner?", "oid"),
        ("What type is indkey?", "int2vector"),
        ("What data type does the relowner column have?", "oid"),
        ("What type is the relname column of lb_relation?", "name"),
    ],
)
def test_what_type_is_a_column_reads_its_type_cell(catalog: list[Page], question: str, expected: str) -> None:
    assert doc_answers(catalog, question)[:1] == [expected]  # must fail: "lb_role.oid", "lb_attribute.attnum"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What does factorial(5) return?", "120"),
        ("What is the result of gcd(1071, 462)?", "21"),
        ("What does gcd(1071,462) return?", "21"),
    ],
)
@pytest.mark.anyio
async def test_a_call_gets_its_examples_result(tmp_path: Path, question: str, expected: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Mathematical Functions", FUNCTIONS), question)
    assert (outcome.status, outcome.answer) == ("answered", expected)


@pytest.mark.parametrize(
    "question",
    [
        "What does factorial(7) return?",  # was "factorial", the description
        "What is the result of factorial(7)?",  # was "120", factorial(5)'s
        "What is the result of gcd(12, 8)?",  # was "21", gcd(1071, 462)'s
    ],
)
@pytest.mark.anyio
async def test_another_calls_result_is_no_answer(tmp_path: Path, question: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Mathematical Functions", FUNCTIONS), question)
    assert outcome.status == "abstained", outcome.answer


@pytest.mark.anyio
async def test_a_noun_ending_in_a_regex_escape_does_not_crash(tmp_path: Path) -> None:
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "lb_relation", CATALOG), "What is the low value of relname?"
    )
    assert "policy failed" not in outcome.answer
