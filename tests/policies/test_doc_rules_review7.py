"""A seventh review, on invented pages of a message broker's manual ("Murrelet"), found wrong answers;
each is a case here that failed before its fix.

Defaults: one given per case ("3 for queues and 1 for topics") answered a question naming no case
or the other one; a list default without quotes was cut at its first comma ("localhost, ::1"), and
one followed by a clause lost its rest ('"$tenant", shared, so that ...'); a table's row answered a
default asked in a case the row cannot state ("on a replica node"); "What was the previous default"
answered with today's; "X (the default), on, and off" read as a list.

Names, versions, locks: a setting named in a condition ("... when sync_commit is replica") or as the
object of "This overrides X" answered "which parameter"; a parameter missing two words of the question
answered it ("replay consumers" for "messages"); "lz4" answered by a sentence about zstd; a part's
version ("The include_purged argument of X is available since 5.0") or a deprecation's ("deprecated
since 3.2") answered when X came or went; a lock named after "Unlike DROP TOPIC", held by another
command ("the SHARE lock that REPLAY holds") or by a variant ("REPLAY to a file takes ..."); "What type
does X return?" answered with a name.
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


SETTINGS = """
<h2>Retention</h2>
<dl>
<dt><code>dead_letter_retention</code> (integer)</dt>
<dd><p>Sets how long messages in dead letter queues are kept. This overrides <code>retention_period</code>
for dead letter queues only.</p></dd>
<dt><code>min_insync_replicas</code> (integer)</dt>
<dd><p>The minimum number of replicas that must acknowledge a publish when <code>sync_commit</code> is
replica.</p></dd>
<dt><code>max_queue_length</code> (integer)</dt>
<dd><p>Sets the maximum number of messages a queue may hold.</p></dd>
<dt><code>compress_level</code> (integer)</dt>
<dd><p>Sets the compression level used when compression is zstd.</p></dd>
<dt><code>sync_commit</code> (enum)</dt>
<dd><p>Valid values are remote_apply, on (the default), remote_write, local, and off.</p></dd>
<dt><code>BATCH_SIZE</code></dt>
<dd><p>The number of messages read in one step. The default is 500; prior to version 5 it was 100.</p></dd>
</dl>
<table><tr><th>Name</th><th>Type</th><th>Default</th><th>Description</th></tr>
<tr><td><code>replica_max_inflight</code></td><td>integer</td><td>-1</td>
<td>Limit on a replica node; -1 means use max_inflight</td></tr></table>
<h2>Functions</h2>
<table><tr><th>Function</th><th>Return type</th><th>Description</th></tr>
<tr><td><code>queue_bytes(name text)</code></td><td><code>bigint</code></td>
<td>Disk space used by the queue</td></tr>
</table>
<p>The include_purged argument of <code>segment_count</code> is available since version 5.0.</p>
<h2>Release 5.0</h2>
<p>Remove the legacy_ack_mode parameter, deprecated since version 3.2.</p>
<h2>Locks</h2>
<p>Unlike <code>DROP TOPIC</code>, the other forms of <code>ALTER TOPIC</code> take only a
<code>SHARE UPDATE EXCLUSIVE</code> lock on the topic.</p>
<p><code>PURGE QUEUE</code> waits for a running replay, since it conflicts with the <code>SHARE</code> lock
that <code>REPLAY</code> holds on its source queue.</p>
<p><code>REPLAY</code> to a file takes only an <code>ACCESS SHARE</code> lock on the source queue.</p>
<h2>Programs</h2>
<p>Queue contents are exported to files by murdump(1), and loaded back into a queue by murload(1).</p>
<dl><dt><code>compact_cost_limit</code> (integer)</dt>
<dd><p>This is the accumulated cost that will cause the compacting process to sleep for
<code>compact_cost_delay</code>.</p></dd></dl>
"""


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review7-settings") / "murrelet", "Murrelet settings", SETTINGS)


@pytest.mark.parametrize(
    ("question", "wrong"),
    [
        ("Which parameter sets the retention period for dead letter queues?", "retention_period"),
        (
            "Which parameter sets the minimum number of replicas that must acknowledge a publish?",
            "sync_commit",
        ),
        ("Which parameter sets the maximum number of replay consumers of a queue?", "max_queue_length"),
        ("Which parameter sets the compression level used with lz4?", "compress_level"),
        ("What does a value of -1 mean for max_inflight?", "use max_inflight"),
        ("What was BATCH_SIZE's default in earlier versions?", "500"),
        ("What is the default sync_commit?", "on, remote_write, local"),
        ("Since which version is segment_count available?", "5.0"),
        ("In which version was legacy_ack_mode removed?", "3.2"),
        ("What lock does DROP TOPIC take?", "SHARE UPDATE EXCLUSIVE"),
        ("Which lock does PURGE QUEUE take on the source queue?", "SHARE"),
        ("Which lock does REPLAY take?", "ACCESS SHARE"),
        ("Which program loads queue contents back into a queue?", "murdump(1)"),
    ],
)
def test_the_seventh_reviews_wrong_answers(settings: list[Page], question: str, wrong: str) -> None:
    # must fail: each was answered with `wrong`
    assert wrong not in doc_answers(settings, question)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which parameter sets the retention period for dead letter queues?", "dead_letter_retention"),
        (
            "Which parameter sets the minimum number of replicas that must acknowledge a publish?",
            "min_insync_replicas",
        ),
        ("Which parameter sets the compression level used with zstd?", "compress_level"),
        ("What does a value of -1 mean for replica_max_inflight?", "use max_inflight"),
        ("What is the default sync_commit?", "on"),
        ("In which version was legacy_ack_mode deprecated?", "3.2"),
        ("What lock does ALTER TOPIC take?", "SHARE UPDATE EXCLUSIVE"),
        ("Which lock does REPLAY to a file take?", "ACCESS SHARE"),
        ("What type does queue_bytes return?", "bigint"),
        ("Which program loads queue contents back into a queue?", "murload(1)"),
        ("Which program exports queue contents to files?", "murdump(1)"),
        (
            "Which parameter is the accumulated cost that will cause the compacting process to sleep?",
            "compact_cost_limit",
        ),
    ],
)
def test_what_the_same_pages_still_answer(settings: list[Page], question: str, answer: str) -> None:
    assert doc_answers(settings, question)[:1] == [answer]
