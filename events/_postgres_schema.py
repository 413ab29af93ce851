"""The PostgreSQL store's tables and its append function, created in one schema per store.

Why the append is a server-side function, and how global order stays gap-free:

- One call appends a whole batch (group commit): one round trip and one commit.
- Each run is serialized by a transaction-level advisory lock on its id (taken in a fixed
  order, so concurrent batches cannot deadlock); the expected-seq check then reads the
  latest committed `runs.next_seq`. A stale append is reported back, never written. The
  `(run_id, seq)` primary key is the last line of defence behind it.
- **Global order.** Positions come from an identity sequence, which is not
  transactional: two appends can commit in the other order than their positions. A
  tailer therefore reads only rows whose inserting transaction id (`xid`, stored per row)
  is below `pg_snapshot_xmin` of its snapshot: every such transaction has finished. That
  alone would still let a tailer pass over a lower position whose transaction is in
  flight, so the function also makes positions *monotone in transaction id*: it takes a
  short session-level advisory lock before its first write (which assigns the xid) and
  releases it right after its inserts, before the commit. So `xid_a < xid_b` implies
  every position of `a` is below every position of `b`, and a row that becomes visible
  later always has a higher position than anything a tailer already returned. The lock
  covers microseconds of server work, never the commit's flush, so PostgreSQL's own group
  commit still merges concurrent commits.
- Leases live in their own table (`queue`), so a worker claiming or renewing never holds
  a row lock that an append inside the ordering lock would wait for.
- **Page bodies stored once** (`bodies`, keyed by the page's sha256; `_bodies` cuts and
  splices them): the client sends each page event's row without its body, the body and its
  digest. The function inserts the bodies missing (in digest order, so that two batches
  cannot deadlock on them) before it takes the ordering lock, since an insert may wait for
  another transaction holding the same digest to commit. A page whose stored body differs
  from the one sent is written whole (the body put back in place with `overlay`).
"""

from __future__ import annotations

from typing import Final

from psycopg import sql

# Bump when the DDL changes incompatibly; stored in the `meta` table.
# 5: page bodies stored once (the bodies table, append_batch's p_ev_digest/page).
# 6: a queued append frees a run still in the queue (RunQueue.requeue) instead of leaving it held.
SCHEMA_VERSION: Final = 6

_DDL: Final = """
CREATE SCHEMA IF NOT EXISTS {schema};

CREATE TABLE IF NOT EXISTS {schema}.meta (
    key text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE IF NOT EXISTS {schema}.runs (
    run_id text PRIMARY KEY,
    ord bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    -- JSON-encoded: a question may hold NUL, which a text column refuses.
    question json NOT NULL,
    status text NOT NULL,
    next_seq bigint NOT NULL,
    started_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS {schema}.events (
    position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    run_id text NOT NULL,
    seq bigint NOT NULL,
    type text NOT NULL,
    body json NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- Page bodies stored once: the body as the JSON string its events held (docs/architecture.md).
CREATE TABLE IF NOT EXISTS {schema}.bodies (
    sha256 text PRIMARY KEY,
    body json NOT NULL
);

-- Runs submitted for workers. A row leaves the queue when its run is finished.
CREATE TABLE IF NOT EXISTS {schema}.queue (
    run_id text PRIMARY KEY,
    ord bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    lease_owner text,
    lease_until timestamptz,
    claims integer NOT NULL DEFAULT 0
);

-- Version 4's signature: replaced below by one with two more (optional) arguments, which
-- CREATE OR REPLACE would add beside it as an overload.
DROP FUNCTION IF EXISTS {schema}.append_batch(
    text[], bigint[], text[], text[], timestamptz[], timestamptz[], boolean[], integer[], bigint[],
    text[], text[], boolean
);

CREATE OR REPLACE FUNCTION {schema}.append_batch(
    p_runs text[],
    p_expected bigint[],
    p_questions text[],
    p_statuses text[],
    p_started timestamptz[],
    p_updated timestamptz[],
    p_queued boolean[],
    p_ev_index integer[],
    p_ev_seq bigint[],
    p_ev_type text[],
    p_ev_body text[],
    p_notify boolean,
    -- Per event: a page's digest and body (JSON string) when its row was sent without it, else NULL.
    p_ev_digest text[] DEFAULT NULL,
    p_ev_page text[] DEFAULT NULL
) RETURNS bigint[]
LANGUAGE plpgsql AS $fn$
DECLARE
    n integer := cardinality(p_runs);
    -- Per append: -1 when written, -2 when the run has ended (a terminal event is
    -- stored), else the run's actual next seq (a conflict).
    result bigint[] := array_fill(-1::bigint, ARRAY[n]);
    current_seqs bigint[];
    current_statuses text[];
    accepted integer := 0;
BEGIN
    -- In key order (the sorted subquery feeds the calls in order), so that concurrent
    -- batches cannot deadlock; one statement instead of a loop of PERFORMs.
    PERFORM count(pg_advisory_xact_lock(k.key))
    FROM (SELECT DISTINCT hashtextextended(r, 0) AS key FROM unnest(p_runs) AS r ORDER BY 1) AS k;

    SELECT array_agg(coalesce(r.next_seq, 0) ORDER BY u.i),
           array_agg(coalesce(r.status, 'running') ORDER BY u.i)
    INTO current_seqs, current_statuses
    FROM unnest(p_runs) WITH ORDINALITY AS u(run_id, i)
    LEFT JOIN {schema}.runs AS r ON r.run_id = u.run_id;

    FOR i IN 1..n LOOP
        IF current_statuses[i] <> 'running' THEN
            result[i] := -2;
        ELSIF current_seqs[i] <> p_expected[i] THEN
            result[i] := current_seqs[i];
        ELSE
            accepted := accepted + 1;
        END IF;
    END LOOP;
    IF accepted = 0 THEN
        RETURN result;
    END IF;

    IF p_ev_digest IS NOT NULL THEN
        INSERT INTO {schema}.bodies (sha256, body)
        SELECT DISTINCT ON (e.digest) e.digest, e.page::json
        FROM unnest(p_ev_index, p_ev_digest, p_ev_page) AS e(ix, digest, page)
        WHERE e.digest IS NOT NULL AND result[e.ix] = -1
        ORDER BY e.digest
        ON CONFLICT (sha256) DO NOTHING;
    END IF;

    PERFORM pg_advisory_lock({order_lock});
    BEGIN
        -- Set-based, and no subscripts on text arrays (O(i) each): joins on ordinality.
        INSERT INTO {schema}.runs (run_id, question, status, next_seq, started_at, updated_at)
        SELECT a.run_id, a.question::json, a.status, c.n, a.started, a.updated
        FROM unnest(p_runs, p_questions, p_statuses, p_started, p_updated)
             WITH ORDINALITY AS a(run_id, question, status, started, updated, i)
        JOIN (SELECT ix, count(*) AS n FROM unnest(p_ev_index) AS e(ix) GROUP BY ix) AS c ON c.ix = a.i
        WHERE result[a.i] = -1 AND p_expected[a.i] = 0
        ORDER BY a.i;

        UPDATE {schema}.runs AS r
        SET next_seq = r.next_seq + c.n,
            status = CASE WHEN a.status = 'running' THEN r.status ELSE a.status END,
            updated_at = a.updated
        FROM unnest(p_runs, p_statuses, p_updated) WITH ORDINALITY AS a(run_id, status, updated, i)
        JOIN (SELECT ix, count(*) AS n FROM unnest(p_ev_index) AS e(ix) GROUP BY ix) AS c ON c.ix = a.i
        WHERE r.run_id = a.run_id AND result[a.i] = -1 AND p_expected[a.i] > 0;

        INSERT INTO {schema}.events (run_id, seq, type, body)
        SELECT a.run_id, e.seq, e.type,
               CASE WHEN e.digest IS NULL OR b.body::text = e.page THEN e.body
               ELSE overlay(e.body PLACING e.page FROM strpos(e.body, '"body":null,"sha256":"') + 7 FOR 4)
               END::json
        FROM unnest(p_ev_index, p_ev_seq, p_ev_type, p_ev_body, p_ev_digest, p_ev_page)
             AS e(ix, seq, type, body, digest, page)
        JOIN unnest(p_runs) WITH ORDINALITY AS a(run_id, i) ON a.i = e.ix
        LEFT JOIN {schema}.bodies AS b ON b.sha256 = e.digest
        WHERE result[e.ix] = -1
        ORDER BY e.ix, e.seq;

        -- A run still queued (requeued before its worker released it) is freed: the
        -- holder's release names its owner, so it then leaves the run queued.
        INSERT INTO {schema}.queue (run_id)
        SELECT a.run_id FROM unnest(p_runs, p_queued) WITH ORDINALITY AS a(run_id, queued, i)
        WHERE result[a.i] = -1 AND a.queued
        ON CONFLICT (run_id) DO UPDATE SET lease_owner = NULL, lease_until = NULL;
    EXCEPTION WHEN OTHERS OR query_canceled THEN
        -- A session lock outlives an error: release it, or every later append would hang.
        PERFORM pg_advisory_unlock({order_lock});
        RAISE;
    END;
    PERFORM pg_advisory_unlock({order_lock});

    IF p_notify THEN
        PERFORM pg_notify({channel}, '');
    END IF;
    RETURN result;
END
$fn$;
"""


def ddl(schema: str) -> sql.Composed:
    """The idempotent DDL that creates (or upgrades in place) a store in `schema`."""
    return sql.SQL(_DDL).format(
        schema=sql.Identifier(schema),
        order_lock=sql.SQL("hashtext('citeloop.order'), hashtext({})").format(sql.Literal(schema)),
        channel=sql.Literal(channel(schema)),
    )


def channel(schema: str) -> str:
    """The LISTEN/NOTIFY channel on which appends to `schema` are announced."""
    return f"citeloop_{schema}"
