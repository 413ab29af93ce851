"""A seventh review, on invented pages of a message broker's manual ("Murrelet"), found wrong answers;
each is a case here that failed before its fix.

Defaults: one given per case ("3 for queues and 1 for topics") answered a question naming no case
or the other one; a list default without quotes was cut at its first comma ("localhost, ::1"), and
one followed by a clause lost its rest ('"$tenant", shared, so that ...'); a table's row answered a
default asked in a case the row cannot state ("on a replica node").
"""

from __future__ import annotations

import pytest
from citeloop.events import Page
from helpers.doc_pages import doc_answers, one_page

NETWORK = """
<h2>Connection settings</h2>
<dl>
<dt><code>listen_addresses</code> (string)</dt>
<dd><p>The addresses to listen on, as a comma-separated list.
The default value is <code>localhost, ::1</code>.
</p></dd>
<dt><code>tenant_search_path</code> (string)</dt>
<dd><p>The order in which namespaces are searched.
The default value is <code>"$tenant", shared</code>, so that
each tenant sees its own queues first.</p></dd>
<dt><code>replication_factor</code> (integer)</dt>
<dd><p>Sets the number of copies kept of each queue or topic.
The default is 3 for queues and 1 for topics.</p></dd>
<dt><code>ack_window</code> (integer)</dt>
<dd><p>The unacknowledged deliveries allowed. The default is 60, which is one minute of traffic.</p></dd>
<dt><code>max_inflight</code> (integer)</dt>
<dd><p>The deliveries a consumer may have unacknowledged.</p></dd>
</dl>
<h2>Summary</h2>
<table><tr><th>Name</th><th>Type</th><th>Default</th></tr>
<tr><td><code>max_inflight</code></td><td>integer</td><td>64</td></tr></table>
"""


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review7") / "murrelet", "Connections", NETWORK)


def test_a_default_per_case_answers_only_the_case_asked(network: list[Page]) -> None:
    # must fail: "3" (the queues' default) for no case and for topics
    assert doc_answers(network, "What is the default replication_factor?") == []
    assert doc_answers(network, "What is the default replication_factor for topics?")[:1] == ["1"]
    assert doc_answers(network, "What is the default replication_factor for queues?")[:1] == ["3"]


def test_a_list_default_is_the_whole_list(network: list[Page]) -> None:
    # must fail: "localhost," and '"$tenant"', the lists' first items
    assert doc_answers(network, "What is the default listen_addresses?")[:1] == ["localhost, ::1"]
    assert doc_answers(network, "What is the default tenant_search_path?")[:1] == ['"$tenant", shared']
    # a clause after the value is no item of a list
    assert doc_answers(network, "What is the default ack_window?")[:1] == ["60"]


def test_a_row_states_no_case(network: list[Page]) -> None:
    # must fail: "64", the row's, for a case it does not state
    assert doc_answers(network, "What is the default max_inflight on a replica node?") == []
    assert doc_answers(network, "What is the default max_inflight?")[:1] == ["64"]
