#!/usr/bin/env bash
# Herald's benchmark, one command from the repository root:
#
#   bench/run.sh | tee bench/results/$(date +%F)-$(nproc)cores.txt
#
# Needs Java 17, the PostgreSQL server binaries and client tools (initdb, pg_ctl, psql, pgbench;
# pg_stat_statements): it starts a PostgreSQL cluster of its own in a temporary folder
# (pg_stat_statements preloaded, bench/pg.sh) and removes it at the end; BENCH_PGHOST (with
# PGPORT/PGUSER/PGPASSWORD) uses a running server instead, in a database it drops at the end. It
# builds deploy/target/herald.jar if it is missing, measures the raw append limit with pgbench,
# starts the provider sandbox in a JVM of its own and Herald pointed at it, drives load from a
# separate JVM (LoadDriver.java) and prints one result block. Not part of the test suite. Durations and sizes: see the variables below.
set -euo pipefail

cd "$(dirname "$0")/.."
SECONDS_PER_PHASE=${BENCH_SECONDS:-20}
# long enough for a steady state: 2,000 took about 3 s on two cores, where the start and the last
# answers weigh in (bench/results/2026-12-01-runs.md: runs 11 and 12)
E2E_COUNT=${BENCH_E2E_COUNT:-10000}
# publications sent end to end before anything is measured, so the JIT has compiled Herald's hot
# paths (on two cores the compiler threads keep taking CPU for the first 1-2 minutes of load, and a
# cold JVM halves the first phase's figures); 0 skips it
WARMUP_COUNT=${BENCH_WARMUP_COUNT:-10000}
SLOW_COUNT=${BENCH_SLOW_COUNT:-2000}
SLOW_LATENCY_MS=${BENCH_SLOW_LATENCY_MS:-2000}
# rounds of the slow-provider phase sent before anything is measured, as the warm-up is for the rest:
# a slow answer takes paths a zero-latency one never does (the sandbox's asynchronous reply, a new
# connection per call in flight), and unwarmed the compiler took 29 % of Herald's CPU in that phase
# (bench/results/2026-12-02-runs.md); 0 skips them
SLOW_WARMUP_ROUNDS=${BENCH_SLOW_WARMUP_ROUNDS:-2}
# a second slow-provider run whose ideal (in flight ÷ latency) fits inside the CPU budget, so what it
# reaches shows whether in-flight calls wait on threads; 0 skips it
FIT_COUNT=${BENCH_FIT_COUNT:-300}
FIT_LATENCY_MS=${BENCH_FIT_LATENCY_MS:-10000}
REPLAY_EVENTS=${BENCH_REPLAY_EVENTS:-1000000}
# the stock-Axon reference: lifecycles warmed up and measured, and its projection's segments (Herald's default)
REF_WARMUP=${BENCH_REF_WARMUP_COUNT:-$WARMUP_COUNT}
REF_COUNT=${BENCH_REF_COUNT:-$E2E_COUNT}
REF_SEGMENTS=${BENCH_REF_SEGMENTS:-2}
SATURATION_CLIENTS=${BENCH_CLIENTS:-64}
# an intake rate Herald keeps up with end to end, to show the answer's latency when not overloaded
SUSTAINED_RATE=${BENCH_SUSTAINED_RATE:-50}
# the open loop's fixed rate, and the rate at which the database's own answer time is measured
FIXED_RATE=${BENCH_FIXED_RATE:-500}
# an open loop below intake's saturation on two cores, its p99 set against the database's own at that rate
MID_RATE=${BENCH_MID_RATE:-250}
# 0 skips the three fixed-rate intake phases and the database's own figures at those rates (on a machine
# too busy to drain their backlog in time, so that the other phases still run)
FIXED_PHASES=${BENCH_FIXED_PHASES:-1}
# "own": the provider sandbox in a JVM of its own (SandboxLauncher), Herald pointed at it by its
# providers' base URLs, so the sandbox's side of every call is not counted as Herald's;
# "in-process": the sandbox served by Herald itself (herald.sandbox.enabled), as before the runs of `bench/results/2026-12-07-runs.md`
SANDBOX_MODE=${BENCH_SANDBOX:-own}
SANDBOX_OPTS=${BENCH_SANDBOX_OPTS:--Xmx512m -XX:+UseParallelGC}
# a folder: Herald's GC log, a flight recording (jcmd JFR.start, settings=profile) of the intake
# phases at the fixed and mid rates, of the end-to-end, slow-provider and replay phases, and each fixed-rate phase's
# requests (planned send and latency), written there; unset, none of them
PROFILE_DIR=${BENCH_PROFILE_DIR:-}
DRAIN_SECONDS=${BENCH_DRAIN_SECONDS:-900}
# "all": every phase; "intake": only what intake's figures need (the append alone, the warm-up, the
# four intake phases), no reference, slow-provider, end-to-end or replay phase
PHASES=${BENCH_PHASES:-all}
case "$PHASES" in all|intake) ;; *) echo "BENCH_PHASES is all or intake, not $PHASES" >&2; exit 2 ;; esac
if [ "$PHASES" = intake ]; then REF_COUNT=0 SLOW_WARMUP_ROUNDS=0 FIT_COUNT=0 REPLAY_EVENTS=0; fi
# how long Herald and the sandbox may take to start (on a machine other builds keep busy, minutes)
START_SECONDS=${BENCH_START_SECONDS:-600}
# how many of the end-to-end phase's most frequent statements the result block lists, each with its
# calls per publication (0: none)
TOP_STATEMENTS=${BENCH_TOP_STATEMENTS:-0}

# the jar measured (another build, e.g. the main branch's, for an A/B in one window)
JAR=${BENCH_JAR:-deploy/target/herald.jar}
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
DB=herald_bench_$(date +%s)
WORK=$(mktemp -d)
HERALD_PID=
SANDBOX_PID=
log() { echo "[bench] $*" >&2; }

cleanup() {
    if [ -n "$HERALD_PID" ]; then kill "$HERALD_PID" 2>/dev/null || true; wait "$HERALD_PID" 2>/dev/null || true; fi
    if [ -n "$SANDBOX_PID" ]; then kill "$SANDBOX_PID" 2>/dev/null || true; wait "$SANDBOX_PID" 2>/dev/null || true; fi
    pg_stop
    # the database's own log (checkpoints) beside the GC log and the recordings
    if [ -n "$PROFILE_DIR" ] && [ -f "$WORK/pg/server.log" ]; then cp "$WORK/pg/server.log" "$PROFILE_DIR/postgresql.log"; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
source bench/pg.sh

command -v pgbench >/dev/null || { echo "pgbench is missing (apt-get install postgresql-contrib)" >&2; exit 2; }
if [ ! -f "$JAR" ] && [ -z "${BENCH_JAR:-}" ]; then
    log "building $JAR"
    ./mvnw -q -B -pl deploy -am package -DskipTests
fi
[ -f "$JAR" ] || { echo "no jar at $JAR" >&2; exit 2; }
pg_start
createdb "$DB"
JDBC="jdbc:postgresql://$PGHOST:$PGPORT/$DB?user=$PGUSER${PGPASSWORD:+&password=$PGPASSWORD}"

# --- 1. raw PostgreSQL append limit: single-row inserts into a table shaped like domain_event_entry
log "pgbench: raw append limit, 8 clients, ${SECONDS_PER_PHASE}s"
psql -q -d "$DB" <<'SQL'
CREATE TABLE bench_event (
    global_index BIGSERIAL NOT NULL PRIMARY KEY, aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number BIGINT NOT NULL, type VARCHAR(255), event_identifier VARCHAR(255) NOT NULL UNIQUE,
    meta_data BYTEA, payload BYTEA NOT NULL, payload_revision VARCHAR(255), payload_type VARCHAR(255) NOT NULL,
    time_stamp VARCHAR(255) NOT NULL, UNIQUE (aggregate_identifier, sequence_number));
SQL
cat > "$WORK/append.sql" <<'SQL'
INSERT INTO bench_event (aggregate_identifier, sequence_number, type, event_identifier, meta_data, payload,
    payload_revision, payload_type, time_stamp)
VALUES ('pub_' || md5(random()::text), 0, 'Publication', gen_random_uuid()::text,
    convert_to('{"correlationId":"' || gen_random_uuid() || '","actor":"key:bench"}', 'UTF8'),
    convert_to(repeat('x', 600), 'UTF8'), '1', 'io.herald.contracts.publication.PublicationRequestedEvent',
    now()::text);
SQL
pgbench -n -c 8 -j 2 -T "$SECONDS_PER_PHASE" -f "$WORK/append.sql" "$DB" > "$WORK/pgbench.txt" 2>&1
RAW_TPS=$(grep -oP 'tps = \K[0-9.]+' "$WORK/pgbench.txt" | head -1)
# --- 1a. the database's own answer time at the fixed intake rates: the same append, RATE
# transactions a second (pgbench's --rate: Poisson arrivals) from 8 clients, each timed from its
# scheduled start as the driver times a request. A request at that rate waits for an append and a
# commit too, so this p99 is about the least intake's can be on this machine (bench/results/2026-12-02-runs.md, runs 8 and 9).
db_at_rate() {
    local rate=$1 line="not measured: pgbench failed"
    log "pgbench: the append at a fixed $rate tx/s, ${SECONDS_PER_PHASE}s"
    rm -f "$WORK"/fixed.*
    if pgbench -n -c 8 -j 2 -R "$rate" -T "$SECONDS_PER_PHASE" -l --log-prefix="$WORK/fixed" -f "$WORK/append.sql" \
            "$DB" > "$WORK/pgbench-fixed.txt" 2>&1; then
        # a log line: client, transaction, microseconds, script, epoch seconds, microseconds, schedule lag
        line=$(cat "$WORK"/fixed.* | python3 -c 'import sys
ms = sorted((int(f[2]) + int(f[6])) / 1000 for f in (l.split() for l in sys.stdin))
at = lambda p: ms[min(len(ms) - 1, max(0, -(-len(ms) * p // 100) - 1))]
print(f"transactions={len(ms)} p50_ms={at(50):.1f} p99_ms={at(99):.1f}")') \
            || line="not measured: pgbench logged no transactions"
    fi
    echo "$line"
}
DB_FIXED="skipped" DB_MID="skipped" DB_SUSTAINED="skipped"
if [ "$FIXED_PHASES" -ne 0 ]; then
    DB_FIXED=$(db_at_rate "$FIXED_RATE")
    DB_MID=$(db_at_rate "$MID_RATE")
    DB_SUSTAINED=$(db_at_rate "$SUSTAINED_RATE")
fi
psql -q -d "$DB" -c 'DROP TABLE bench_event'

# --- Herald, with its sandbox, on that database
unzip -o -j -q "$JAR" 'BOOT-INF/lib/*' -d "$WORK/lib"
rm -f "$WORK"/lib/logback-*.jar   # the reference logs nothing; no provider means slf4j's no-op logger
# a new JVM per phase: C1 alone compiles the driver's few hot paths at once, so its JIT takes little
# of the CPU it shares with Herald
# compiled once here, not by the source launcher in each phase: a phase's CPU figures start before its
# driver does, and on a busy machine compiling the source took a minute of them
PG_JAR=$(ls "$WORK"/lib/postgresql-*.jar)
javac -nowarn -cp "$PG_JAR" -d "$WORK/driver" bench/LoadDriver.java
DRIVER=(java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$WORK/driver:$PG_JAR" LoadDriver)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
BASE=http://localhost:$PORT
SANDBOX_BASE=$BASE
SYSTEM_KEY="hs.bench-$(head -c 24 /dev/urandom | base64 | tr -dc 'a-zA-Z0-9')"
ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
AUDIT_SIGNING_KEY=$(head -c 32 /dev/urandom | base64)
HERALD_HEAP=${BENCH_HERALD_HEAP:-512m}
# the JVM options and malloc arenas of the Kubernetes manifests (deploy/k8s/configmap.yaml)
HERALD_OPTS=${BENCH_HERALD_OPTS:--XX:+UseParallelGC -XX:-TieredCompilation -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10 -XX:TrimNativeHeapInterval=10000}
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
# the java that runs Herald (and the stock-Axon reference, so the two stay comparable); the
# driver and the sandbox keep the default one
HERALD_JAVA=${BENCH_HERALD_JAVA:-java}
# the jcmd of that Java, which attaches to it for the flight recordings
HERALD_JCMD=$(dirname "$(readlink -f "$(command -v "$HERALD_JAVA")")")/jcmd

# the sandbox in a JVM of its own: Herald's libraries, only the sandbox's beans and a web server
# (io.herald.sandbox.SandboxLauncher), no database; it keeps its state in memory for the whole run
start_sandbox() {
    local port
    port=$(free_port)
    SANDBOX_BASE=http://localhost:$port
    # shellcheck disable=SC2086
    java $SANDBOX_OPTS -cp "$WORK/lib/*" io.herald.sandbox.SandboxLauncher --server.port="$port" \
        >> "$WORK/sandbox.log" 2>&1 &
    SANDBOX_PID=$!
    local deadline=$((SECONDS + START_SECONDS))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if curl -fs -o /dev/null "$SANDBOX_BASE/sandbox/_admin/latency" -X PUT -H 'Content-Type: application/json' \
                -d '{"millis":0}' 2>/dev/null; then return 0; fi
        kill -0 "$SANDBOX_PID" 2>/dev/null || { tail -50 "$WORK/sandbox.log" >&2; exit 1; }
        sleep 0.5
    done
    echo "the sandbox did not start" >&2; exit 1
}
# how Herald finds its sandbox: its own (sandbox on), or the one above by the providers' base URLs, as
# SandboxChannelsEnvironment.pointedAt sets them (private networks allowed: the sandbox is on loopback)
sandbox_arguments() {
    if [ "$SANDBOX_MODE" = own ]; then
        local at="$SANDBOX_BASE/sandbox"
        echo "--herald.sandbox.enabled=false --herald.public-base-url=$BASE" \
            "--herald.channels.facebook.graph-base-url=$at/facebook/v25.0" \
            "--herald.channels.linkedin.api-base-url=$at/linkedin" \
            "--herald.channels.threads.base-url=$at/threads/v1.0" \
            "--herald.channels.instagram.graph-base-url=$at/instagram/v23.0" \
            "--herald.outbound.allow-private-networks=true"
    else
        echo "--herald.sandbox.enabled=true --herald.sandbox.allow-external-database=true"
    fi
}
GC_LOG=
[ -n "$PROFILE_DIR" ] && { mkdir -p "$PROFILE_DIR"; GC_LOG="-Xlog:gc*,safepoint:file=$PROFILE_DIR/herald-gc-%p.log:time,uptime,level,tags"; }
start_herald() {
    # shellcheck disable=SC2086,SC2046
    "$HERALD_JAVA" -Xmx"$HERALD_HEAP" $HERALD_OPTS $GC_LOG -Daxoniq.update-checker.disabled=true -jar "$JAR" --server.port="$PORT" \
        --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" \
        --spring.datasource.username="$PGUSER" --spring.datasource.password="${PGPASSWORD:-}" \
        --herald.data-dir="$WORK/data" $(sandbox_arguments) \
        --herald.secrets.encryption-key="$ENCRYPTION_KEY" --herald.security.system-key="$SYSTEM_KEY" \
        --herald.audit.signing-key="$AUDIT_SIGNING_KEY" \
        --herald.security.rate-limit.limit-for-period=100000000 >> "$WORK/herald.log" 2>&1 &
    HERALD_PID=$!
    local deadline=$((SECONDS + START_SECONDS))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if curl -fs "$BASE/actuator/health" 2>/dev/null | grep -q UP; then return 0; fi
        kill -0 "$HERALD_PID" 2>/dev/null || { tail -50 "$WORK/herald.log" >&2; exit 1; }
        sleep 0.5
    done
    echo "Herald did not start" >&2; exit 1
}
stop_herald() { kill "$HERALD_PID"; wait "$HERALD_PID" || true; HERALD_PID=; }
latency() { curl -fs -X PUT "$SANDBOX_BASE/sandbox/_admin/latency" -H 'Content-Type: application/json' -d "{\"millis\":$1}" >/dev/null; }
measure() { local out; if out=$("${DRIVER[@]}" "$@" 2>>"$WORK/driver.err"); then log "$out"; echo "$out"; else echo "not measured: the load driver failed ($(tail -1 "$WORK/driver.err"))"; fi; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"; }
calc() { python3 -c "print(f'{$1:$2}')" 2>/dev/null || echo "not measured"; }
rss_mb() { echo $(( $(ps -o rss= -p "$HERALD_PID") / 1024 )); }
# a flight recording of Herald for one phase, where BENCH_PROFILE_DIR names a folder
profile_start() { [ -z "$PROFILE_DIR" ] || "$HERALD_JCMD" "$HERALD_PID" JFR.start name="$1" settings=profile \
    filename="$PROFILE_DIR/$1.jfr" >/dev/null 2>&1 || true; }
profile_stop() { [ -z "$PROFILE_DIR" ] || "$HERALD_JCMD" "$HERALD_PID" JFR.stop name="$1" >/dev/null 2>&1 || true; }
# CPU ticks used so far by Herald's process alone (/proc/<pid>/stat, user + system), by all PostgreSQL
# server processes, by Herald's JIT compiler threads (part of Herald's), and by the sandbox's process
# where it runs apart (0 where it runs inside Herald: then its CPU is in Herald's)
cpu_seconds() {
    local tck herald pg jit=0 task name sandbox=0
    tck=$(getconf CLK_TCK)
    herald=$(awk '{print $14+$15}' "/proc/$HERALD_PID/stat")
    [ -n "$SANDBOX_PID" ] && sandbox=$(awk '{print $14+$15}' "/proc/$SANDBOX_PID/stat")
    pg=$(pg_cpu_ticks)
    # the thread names read by the shell itself: no process started per thread of Herald's
    for task in /proc/"$HERALD_PID"/task/*; do
        read -r name < "$task/comm" 2>/dev/null || continue
        if [[ $name == *Compiler* ]]; then
            jit=$((jit + $(awk '{print $14+$15}' "$task/stat" 2>/dev/null || echo 0)))
        fi
    done
    echo "$herald $pg $tck $jit $sandbox"
}
cpu_per() { python3 -c "a='$1'.split(); b='$2'.split(); t=int(b[2]); n=$3
print(f'Herald {(int(b[0])-int(a[0]))/t*1000/n:.2f} ms (its JIT compiler {(int(b[3])-int(a[3]))/t*1000/n:.2f} ms),'
      f' PostgreSQL {(int(b[1])-int(a[1]))/t*1000/n:.2f} ms, sandbox {(int(b[4])-int(a[4]))/t*1000/n:.2f} ms')"; }
# bytes Herald's heap has taken for new objects so far, as its collector counts them at each collection
# (Micrometer's jvm.gc.memory.allocated on the open Prometheus endpoint; 0 if it cannot be read)
allocated_bytes() {
    curl -fs "$BASE/actuator/prometheus" 2>/dev/null \
        | awk '/^jvm_gc_memory_allocated_bytes_total/ { printf "%.0f", $2; found = 1 } END { if (!found) printf "0" }'
}
# nanoseconds Herald's threads have run, and have waited runnable for a CPU (the run queue), so far
# (/proc/<pid>/task/*/schedstat; threads that ended meanwhile are not counted), and bytes allocated
sched_ns() {
    local task run=0 wait=0 r w _
    for task in /proc/"$HERALD_PID"/task/*; do
        read -r r w _ < "$task/schedstat" 2>/dev/null || continue
        run=$((run + r)); wait=$((wait + w))
    done
    echo "$run $wait $(allocated_bytes)"
}
sched_per() { python3 -c "a='$1'.split(); b='$2'.split(); n=$3
run=(int(b[0])-int(a[0]))/1e6/n; wait=(int(b[1])-int(a[1]))/1e6/n; kb=(int(b[2])-int(a[2]))/1e3/n
print(f'herald_threads_ran_ms={run:.2f} waited_for_cpu_ms={wait:.2f} allocated_kb={kb:.0f} per request')"; }
# Herald's CPU per publication alone, from a cpu_per line
herald_ms() { sed -n 's/^Herald \([0-9.]*\) ms.*/\1/p' <<<"$1"; }

# A server with autovacuum off (some CI set-ups turn it off) lets the dead rows of Herald's busiest small
# tables pile up (every publication inserts and deletes a timer row and rewrites its view row), and
# each later phase pays for the earlier ones' dead rows. There the benchmark vacuums between phases,
# as autovacuum would have done, and the result block says so.
AUTOVACUUM=$(psql -tAc 'SHOW autovacuum' -d "$DB")
settle() { if [ "$AUTOVACUUM" = "off" ]; then psql -q -d "$DB" -c 'VACUUM (ANALYZE)' 2>/dev/null || true; fi; }

# A phase's backlog: every publication it sent settled, then every processor (the view, the audit chain,
# the live verifier) at the store's head. Settled is not enough: after an intake phase the processors
# that follow the dispatcher were still handling its events while the next phase began, and that
# phase's first seconds paid for them.
backlog() {
    local waited
    waited="$("${DRIVER[@]}" drain "$JDBC" "$DRAIN_SECONDS") $("${DRIVER[@]}" caughtup "$BASE" "$SYSTEM_KEY" "$JDBC" "$DRAIN_SECONDS")"
    log "$waited"
    echo "$waited"
}

# --- 1b. the yardstick: stock Axon on the same database (tables of its own), before Herald starts
log "stock Axon reference, $REF_WARMUP lifecycles of warm-up, then $REF_COUNT measured"
REF="not measured: the reference failed"
if [ "$REF_COUNT" -eq 0 ]; then
    REF="skipped"
elif javac -nowarn -cp "$WORK/lib/*" -d "$WORK/reference" bench/StockAxonReference.java 2>>"$WORK/driver.err"; then
    # shellcheck disable=SC2086
    # Herald's platform module left out: it names Axon's identifier factory (META-INF/services), and
    # the reference stays stock Axon
    REF_CP=$(ls "$WORK"/lib/*.jar | grep -v '/platform-[^/]*\.jar$' | tr '\n' ':')
    REF=$("$HERALD_JAVA" -Xmx"$HERALD_HEAP" $HERALD_OPTS -cp "$WORK/reference:$REF_CP" StockAxonReference "$JDBC" \
        "$REF_WARMUP" "$REF_COUNT" "$REF_SEGMENTS" 2>>"$WORK/driver.err") \
        || REF="not measured: the reference failed ($(tail -1 "$WORK/driver.err"))"
fi
log "$REF"
psql -q -d "$DB" -c 'DROP TABLE IF EXISTS ref_domain_event_entry, ref_snapshot_event_entry, ref_token_entry, ref_view' \
    2>/dev/null || true

# Statements per publication need pg_stat_statements loaded at server start (the benchmark's own
# cluster does); commits come from the database's own counter and need nothing.
pg_statements_setup
commits() { psql -tAc "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()" -d "$DB"; }
statements_reset() { [ "$STATEMENTS" = on ] && psql -q -tAc 'SELECT pg_stat_statements_reset()' -d "$DB" >/dev/null; true; }
# Herald's statements in this database since the reset, transaction control apart, the driver's own
# polls (marked bench-driver) not counted
statements() {
    psql -tA -F' ' -d "$DB" <<'SQL'
SELECT coalesce(sum(calls) FILTER (WHERE query NOT LIKE '%bench-driver%'
           AND query !~* '^\s*(begin|commit|rollback|savepoint|release|start transaction|end)\y'), 0),
       coalesce(sum(calls) FILTER (WHERE query LIKE '%bench-driver%'), 0)
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
SQL
}

# each statement's calls per publication, most frequent first (BENCH_STATEMENTS_DETAIL names the file;
# BENCH_TOP_STATEMENTS lists the first ones, shorter, in the result block)
statements_detail() {
    psql -tA -F' | ' -d "$DB" -v n="$E2E_COUNT" -v limit="${1:-40}" -v width="${2:-400}" <<'SQL'
SELECT round(calls::numeric / :n, 2), calls, left(regexp_replace(query, '\s+', ' ', 'g'), :width)
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND query NOT LIKE '%bench-driver%' ORDER BY calls DESC LIMIT :limit
SQL
}

if [ "$SANDBOX_MODE" = own ]; then log "starting the provider sandbox"; start_sandbox; fi
log "starting Herald"
start_herald
KEY=$(field key "$("${DRIVER[@]}" setup "$BASE" "$SYSTEM_KEY" bench 1000000001 EAAB-bench-token "$SANDBOX_BASE")")
latency 0

# --- warm-up: not a figure
WARM="skipped"
if [ "$WARMUP_COUNT" -gt 0 ]; then
    log "warm-up, $WARMUP_COUNT publications end to end"
    WARM=$(measure e2e "$BASE" "$KEY" bench "$WARMUP_COUNT" warm- "$JDBC")
fi
SLOW_WARM="skipped"
if [ "$SLOW_WARMUP_ROUNDS" -gt 0 ] && [ "$SLOW_COUNT" -gt 0 ]; then
    log "warm-up of the slow provider's paths, $SLOW_WARMUP_ROUNDS rounds of $SLOW_COUNT publications at ${SLOW_LATENCY_MS} ms"
    latency "$SLOW_LATENCY_MS"
    for round in $(seq 1 "$SLOW_WARMUP_ROUNDS"); do
        SLOW_WARM=$(measure e2e "$BASE" "$KEY" bench "$SLOW_COUNT" "slow-warm$round-" "$JDBC")
    done
    latency 0
fi
settle

# --- 2. intake: closed loop at saturation, then an open loop at a fixed 500 req/s
log "intake at saturation, $SATURATION_CLIENTS clients"
SCHED_0=$(sched_ns)
SAT=$(measure saturate "$BASE" "$KEY" bench "$SATURATION_CLIENTS" "$SECONDS_PER_PHASE" sat-)
SAT_SCHED=$(sched_per "$SCHED_0" "$(sched_ns)" "$(field accepted "$SAT" | grep . || echo 1)")
DRAIN_1=$(backlog); settle
FIX="skipped" MID="skipped" SUS="skipped" FIX_SCHED= MID_SCHED= SUS_SCHED= DRAIN_2= DRAIN_M= DRAIN_3=
if [ "$FIXED_PHASES" -ne 0 ]; then
    log "intake at $FIXED_RATE req/s"
    profile_start intake-$FIXED_RATE
    SCHED_0=$(sched_ns)
    FIX=$(measure fixed "$BASE" "$KEY" bench "$FIXED_RATE" "$SECONDS_PER_PHASE" fix- \
        ${PROFILE_DIR:+"$PROFILE_DIR/intake-$FIXED_RATE-latency.txt"})
    FIX_SCHED=$(sched_per "$SCHED_0" "$(sched_ns)" "$((FIXED_RATE * SECONDS_PER_PHASE))")
    profile_stop intake-$FIXED_RATE
    DRAIN_2=$(backlog); settle
    log "intake at $MID_RATE req/s"
    profile_start intake-$MID_RATE
    SCHED_0=$(sched_ns)
    MID=$(measure fixed "$BASE" "$KEY" bench "$MID_RATE" "$SECONDS_PER_PHASE" mid- \
        ${PROFILE_DIR:+"$PROFILE_DIR/intake-$MID_RATE-latency.txt"})
    MID_SCHED=$(sched_per "$SCHED_0" "$(sched_ns)" "$((MID_RATE * SECONDS_PER_PHASE))")
    profile_stop intake-$MID_RATE
    DRAIN_M=$(backlog); settle
    log "intake at $SUSTAINED_RATE req/s"
    SCHED_0=$(sched_ns)
    SUS=$(measure fixed "$BASE" "$KEY" bench "$SUSTAINED_RATE" "$SECONDS_PER_PHASE" sus- \
        ${PROFILE_DIR:+"$PROFILE_DIR/intake-$SUSTAINED_RATE-latency.txt"})
    SUS_SCHED=$(sched_per "$SCHED_0" "$(sched_ns)" "$((SUSTAINED_RATE * SECONDS_PER_PHASE))")
    DRAIN_3=$(backlog); settle
fi

E2E="skipped" E2E_CPU="not measured" E2E_STATEMENTS="not measured" E2E_COMMITS="not measured"
SLOW="skipped" SLOW_CPU="not measured" SLOW_SCHED="not measured"
if [ "$PHASES" = all ]; then
# --- 3. end to end, zero-latency provider
log "end to end, $E2E_COUNT publications"
# Commits come from a counter that an idle backend reports up to 10 s late: the phase's count is
# read 11 s after it ends, less what Herald commits while idle in 11 s (measured here, before it).
sleep 11; IDLE_0=$(commits); sleep 11; IDLE_COMMITS=$(( $(commits) - IDLE_0 ))
statements_reset
COMMITS_0=$(commits)
CPU_0=$(cpu_seconds)
ALLOC_0=$(allocated_bytes)
profile_start e2e
E2E=$(measure e2e "$BASE" "$KEY" bench "$E2E_COUNT" e2e- "$JDBC")
profile_stop e2e
E2E_CPU=$(cpu_per "$CPU_0" "$(cpu_seconds)" "$E2E_COUNT")
E2E_ALLOC=$(calc "($(allocated_bytes)-$ALLOC_0)/1000/$E2E_COUNT" .0f)
# statements are counted as they run: read at once, so no idle time after the phase is counted
TOP=
if [ "$STATEMENTS" = on ]; then
    read -r HERALD_STATEMENTS DRIVER_STATEMENTS <<<"$(statements)"
    [ -n "${BENCH_STATEMENTS_DETAIL:-}" ] && statements_detail > "$BENCH_STATEMENTS_DETAIL"
    if [ "$TOP_STATEMENTS" -gt 0 ]; then TOP=$(statements_detail "$TOP_STATEMENTS" 150 | sed 's/^/    /'); fi
fi
sleep 11
COMMITS_1=$(commits)
if [ "$STATEMENTS" = on ]; then
    E2E_STATEMENTS=$(calc "$HERALD_STATEMENTS/$E2E_COUNT" .1f)
    # every driver poll is a transaction of its own (auto-commit): not Herald's
    E2E_COMMITS=$(calc "($COMMITS_1-$COMMITS_0-$DRIVER_STATEMENTS-$IDLE_COMMITS)/$E2E_COUNT" .2f)
else
    E2E_STATEMENTS="not measured ($STATEMENTS)"
    E2E_COMMITS="$(calc "($COMMITS_1-$COMMITS_0-$IDLE_COMMITS)/$E2E_COUNT" .2f) (the driver's polls included: about 2 a second)"
fi
settle

# --- 4. slow provider: every answer takes SLOW_LATENCY_MS
log "slow provider, $SLOW_COUNT publications at ${SLOW_LATENCY_MS} ms"
latency "$SLOW_LATENCY_MS"
profile_start slow
CPU_0=$(cpu_seconds)
SCHED_0=$(sched_ns)
SLOW=$(measure e2e "$BASE" "$KEY" bench "$SLOW_COUNT" slow- "$JDBC")
SLOW_SCHED=$(sched_per "$SCHED_0" "$(sched_ns)" "$SLOW_COUNT" | sed 's/per request/per publication/')
SLOW_CPU=$(cpu_per "$CPU_0" "$(cpu_seconds)" "$SLOW_COUNT")
profile_stop slow
settle
fi
FIT="skipped"
FIT_CPU="not measured"
if [ "$FIT_COUNT" -gt 0 ]; then
    log "slow provider within the CPU budget, $FIT_COUNT publications at ${FIT_LATENCY_MS} ms"
    latency "$FIT_LATENCY_MS"
    CPU_0=$(cpu_seconds)
    FIT=$(measure e2e "$BASE" "$KEY" bench "$FIT_COUNT" fit- "$JDBC")
    FIT_CPU=$(cpu_per "$CPU_0" "$(cpu_seconds)" "$FIT_COUNT")
fi
latency 0
RSS_AFTER_LOAD=$(rss_mb)

# --- 5. replay: copies of the stored publication streams (new ids) up to REPLAY_EVENTS, written while
# Herald is down; the dispatcher is moved past them (it must not publish the copies), projections rebuilt
REPLAY="skipped"
RSS_END="not measured"
if [ "$REPLAY_EVENTS" -gt 0 ]; then
log "replay: filling the store to $REPLAY_EVENTS events"
stop_herald
psql -q -d "$DB" -v target="$REPLAY_EVENTS" <<'SQL'
SELECT count(*) AS have, (SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier LIKE 'pub\_%') AS per_copy
FROM domain_event_entry \gset
SELECT greatest(0, ceil((:target - :have)::numeric / :per_copy))::int AS copies \gset
INSERT INTO domain_event_entry (aggregate_identifier, sequence_number, type, event_identifier, meta_data, payload,
    payload_revision, payload_type, time_stamp)
SELECT e.aggregate_identifier || '-c' || k, e.sequence_number, e.type, e.event_identifier || '-c' || k, e.meta_data,
       convert_to(replace(convert_from(e.payload, 'UTF8'), e.aggregate_identifier, e.aggregate_identifier || '-c' || k), 'UTF8'),
       e.payload_revision, e.payload_type, e.time_stamp
FROM generate_series(1, :copies) k, domain_event_entry e
WHERE e.aggregate_identifier LIKE 'pub\_%'
ORDER BY k, e.global_index;
-- written a moment ago, unlike any real store of this size: vacuumed now, as autovacuum would have done
-- long before anyone rebuilt a projection from it (otherwise autovacuum may start during the replay)
VACUUM (ANALYZE) domain_event_entry;
-- every processor continues after the copies: the dispatcher never sees them, the projections are rebuilt below
UPDATE token_entry SET token = convert_to(regexp_replace(convert_from(token, 'UTF8'),
        '"index":[0-9]+', '"index":' || (SELECT max(global_index) FROM domain_event_entry)), 'UTF8')
WHERE token IS NOT NULL;
SQL
start_herald
profile_start replay
REPLAY=$(measure replay "$BASE" "$SYSTEM_KEY" "$JDBC")
profile_stop replay
RSS_END=$(rss_mb)
fi

RAW_THIRD=$(calc "$RAW_TPS/3" .1f)
E2E_RATE=$(field publications_per_s "$E2E")
REF_RATE=$(field lifecycles_per_s "$REF")
SLOW_RATE=$(field publications_per_s "$SLOW")
# the slow phase's ideal, in flight ÷ latency (an expression for calc)
SLOW_IDEAL="$SLOW_COUNT/($SLOW_LATENCY_MS/1000)"
# the most the slow phase could reach: its last request accepted at intake's saturation rate, its call
# then as slow as any ("none" where the saturation phase measured nothing, so calc says not measured)
SAT_RATE=$(field accepted_per_s "$SAT")
SLOW_BOUND=$(calc "$SLOW_COUNT/($SLOW_COUNT/${SAT_RATE:-none}+$SLOW_LATENCY_MS/1000)" .3f)
FIT_RATE=$(field publications_per_s "$FIT")
E2E_HERALD_MS=$(herald_ms "$E2E_CPU")
# an intake phase's p99 ÷ the database's own p99 at that rate (pgbench), where both were measured
p99_ratio() { calc "$(field p99_ms "$1")/$(field p99_ms "$2")" .1f; }
SANDBOX_LINE="provider sandbox in Herald's process (its CPU counted in Herald's)"
[ "$SANDBOX_MODE" = own ] && SANDBOX_LINE="provider sandbox in a JVM of its own ($SANDBOX_OPTS), its CPU apart from Herald's"
cat <<EOF
=== Herald benchmark $(date -u +%FT%TZ) ===
machine: $(nproc) cores, load average at start $LOAD_AT_START, at end $(cut -d' ' -f1-3 /proc/loadavg), $(free -m | awk '/Mem:/{print $2}') MB RAM, $(psql -tAc 'SHOW server_version' -d postgres | head -1) $([ -n "$PG_OWN" ] && echo "(the benchmark's own cluster, pg_stat_statements preloaded)" || echo "on $PGHOST") (autovacuum $AUTOVACUUM$([ "$AUTOVACUUM" = off ] && echo ': vacuumed between phases')), Herald $JAR on $("$HERALD_JAVA" -XshowSettings:properties -version 2>&1 | awk -F"= " "/java.runtime.version/{print \$2}") -Xmx$HERALD_HEAP $HERALD_OPTS MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX, phases ($PHASES) ${SECONDS_PER_PHASE}s, at most ${DRAIN_SECONDS}s to drain between phases, $SANDBOX_LINE
raw append (pgbench, 8 clients, 1 row/tx):  $RAW_TPS tx/s   (÷3 = $RAW_THIRD)
  the append alone at $FIXED_RATE tx/s (8 clients):  $DB_FIXED
  the append alone at $MID_RATE tx/s (8 clients):  $DB_MID
  the append alone at $SUSTAINED_RATE tx/s (8 clients):   $DB_SUSTAINED
warm-up, $WARMUP_COUNT publications (not a figure): $WARM
warm-up, slow provider, last of $SLOW_WARMUP_ROUNDS rounds (not a figure): $SLOW_WARM
intake, saturation ($SATURATION_CLIENTS clients):   $SAT
  during the phase: $SAT_SCHED
  then backlog done: $DRAIN_1
intake, fixed $FIXED_RATE req/s:                    $FIX
  p99 ÷ the append alone's p99 at $FIXED_RATE tx/s: $(p99_ratio "$FIX" "$DB_FIXED"); $FIXED_RATE ÷ intake at saturation: $(calc "$FIXED_RATE/${SAT_RATE:-none}" .2f)
  during the phase: $FIX_SCHED
  then backlog done: $DRAIN_2
intake, fixed $MID_RATE req/s:                    $MID
  p99 ÷ the append alone's p99 at $MID_RATE tx/s: $(p99_ratio "$MID" "$DB_MID"); $MID_RATE ÷ intake at saturation: $(calc "$MID_RATE/${SAT_RATE:-none}" .2f)
  during the phase: $MID_SCHED
  then backlog done: $DRAIN_M
intake, fixed $SUSTAINED_RATE req/s:                     $SUS
  p99 ÷ the append alone's p99 at $SUSTAINED_RATE tx/s: $(p99_ratio "$SUS" "$DB_SUSTAINED")
  during the phase: $SUS_SCHED
  then backlog done: $DRAIN_3
EOF
[ "$PHASES" = all ] || exit 0
cat <<EOF
end to end, sandbox 0 ms:                   $E2E
  ratio to raw append ÷ 3:                  $(calc "$E2E_RATE/($RAW_TPS/3)" .3f)
  CPU per publication:                      $E2E_CPU
  Herald's allocation per publication:      $E2E_ALLOC KB (counted at each collection)
  statements per publication:               $E2E_STATEMENTS
  commits per publication:                  $E2E_COMMITS
${TOP:+  most frequent statements (per publication | calls | statement):
$TOP
}stock Axon reference ($REF_SEGMENTS segments, batch 100): $REF
  ratio to raw append ÷ 3:                  $(calc "$REF_RATE/($RAW_TPS/3)" .3f)
  Herald end to end ÷ reference:            $(calc "$E2E_RATE/$REF_RATE" .3f)
slow provider, $SLOW_COUNT publications at ${SLOW_LATENCY_MS} ms: $SLOW
  ideal (in flight ÷ latency):              $(calc "$SLOW_IDEAL" .0f) publications/s; reached $(calc "$SLOW_RATE/($SLOW_IDEAL)" .3f)
  at most, intake at saturation's rate:     $(calc "$SLOW_BOUND" .0f) publications/s; $(calc "$SLOW_BOUND/($SLOW_IDEAL)" .3f) of the ideal; reached $(calc "$SLOW_RATE/$SLOW_BOUND" .3f) of that
  CPU per publication:                      $SLOW_CPU
  Herald's CPU ÷ its CPU at 0 ms:           $(calc "$(herald_ms "$SLOW_CPU")/$E2E_HERALD_MS" .2f)
  during the phase:                         $SLOW_SCHED
slow provider, $FIT_COUNT publications at ${FIT_LATENCY_MS} ms: $FIT
  ideal (in flight ÷ latency):              $(calc "$FIT_COUNT/($FIT_LATENCY_MS/1000)" .0f) publications/s; reached $(calc "$FIT_RATE/($FIT_COUNT/($FIT_LATENCY_MS/1000))" .3f)
  CPU per publication:                      $FIT_CPU
  Herald's CPU ÷ its CPU at 0 ms:           $(calc "$(herald_ms "$FIT_CPU")/$E2E_HERALD_MS" .2f)
replay, all projections rebuilt:            $REPLAY
resident memory (Herald):                   ${RSS_AFTER_LOAD} MB after the load phases, ${RSS_END} MB after the replay
EOF
