#!/usr/bin/env bash
# Herald on a grown store, and what the audit chain costs, one command from the repository root:
#
#   bench/grown.sh | tee bench/results/$(date +%F)-$(nproc)cores-grown.txt
#
# Needs Java 17 and the PostgreSQL server binaries (initdb, pg_ctl, postgres; pg_stat_statements):
# it starts a PostgreSQL cluster of its own in a temporary folder (pg_stat_statements preloaded), so
# its statement counts and the database's CPU are Herald's alone, and removes it at the end. Set
# BENCH_PGHOST (and PGPORT/PGUSER/PGPASSWORD) to use a running server instead; statements are then
# counted only where that server preloads pg_stat_statements, and PostgreSQL's CPU is not measured.
# Builds deploy/target/herald.jar if it is missing. Progress on stderr, the result block on stdout.
#
# Phases (bench/README.md#the-grown-store-and-the-audit-chain):
#  1. seed: BENCH_SEED_COUNT publications end to end (also the JIT's warm-up);
#  2. audit chain on/off: BENCH_CHAIN_COUNT publications measured with the audit chain's processor,
#     then Herald restarted with herald.audit.chain-enabled=false, warmed up as much, and the same
#     measured again; then restarted with it on and waited for until it has chained everything;
#  3. the small store's calls (the console's page among them), each timed BENCH_QUERY_ROUNDS times;
#     every projection rebuilt; then end-to-end latency at BENCH_LATENCY_RATE (10) publications/s,
#     BENCH_LATENCY_COUNT (300) of them in an open loop, after the database is vacuumed and
#     BENCH_LATENCY_WARMUP_COUNT publications of warm-up;
#  4. the store grown to BENCH_STORE_EVENTS events with copies of the stored publication streams
#     (new ids and entry ids, each copy's times a day earlier than the last), written by SQL while
#     Herald is down; then the audit chain and the live verifier follow the copies (timed), every
#     projection is rebuilt (timed), and the database's own read of the same events is timed;
#  5. end-to-end latency as on the small store (vacuumed, warmed up as much, same rate and count),
#     then the same calls on the grown store, each with its ratio to the small store's.
set -euo pipefail

cd "$(dirname "$0")/.."
STORE_EVENTS=${BENCH_STORE_EVENTS:-300000}
SEED_COUNT=${BENCH_SEED_COUNT:-3000}
CHAIN_COUNT=${BENCH_CHAIN_COUNT:-3000}
QUERY_ROUNDS=${BENCH_QUERY_ROUNDS:-100}
VERIFY_ROUNDS=${BENCH_VERIFY_ROUNDS:-20}
# rounds of every call before each store's measured ones (not figures): the small store's calls
# follow a restart, and cold paths made its figures higher than the grown store's
QUERY_WARMUP_ROUNDS=${BENCH_QUERY_WARMUP_ROUNDS:-10}
LATENCY_RATE=${BENCH_LATENCY_RATE:-10}
LATENCY_COUNT=${BENCH_LATENCY_COUNT:-300}
LATENCY_WARMUP_COUNT=${BENCH_LATENCY_WARMUP_COUNT:-$SEED_COUNT}
CATCH_UP_SECONDS=${BENCH_CATCH_UP_SECONDS:-3600}
HERALD_HEAP=${BENCH_HERALD_HEAP:-512m}
HERALD_OPTS=${BENCH_HERALD_OPTS:--XX:+UseParallelGC -XX:-TieredCompilation -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10 -XX:TrimNativeHeapInterval=10000}
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
REBUILD_PAGE_SIZE=${BENCH_REBUILD_PAGE_SIZE:-}
# BENCH_REBUILD_ONLY=yes: the seed, the store grown, then only the rebuild and the database's read,
# BENCH_REBUILD_ROUNDS times with each jar of BENCH_REBUILD_JARS in turn (an A/B on one store)
REBUILD_ONLY=${BENCH_REBUILD_ONLY:-}
REBUILD_ROUNDS=${BENCH_REBUILD_ROUNDS:-1}
# BENCH_REBUILD_TOP_STATEMENTS=N: after each counted rebuild, the N statements that took the database
# the longest (pg_stat_statements' execution time; 0 lists none)
REBUILD_TOP_STATEMENTS=${BENCH_REBUILD_TOP_STATEMENTS:-0}

JAR=deploy/target/herald.jar
read -r -a REBUILD_JARS <<<"${BENCH_REBUILD_JARS:-$JAR}"
HERALD_JAR=$JAR
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
WORK=$(mktemp -d)
HERALD_PID=
log() { echo "[grown] $(date -u +%T) $*" >&2; }

cleanup() {
    if [ -n "$HERALD_PID" ]; then kill "$HERALD_PID" 2>/dev/null || true; wait "$HERALD_PID" 2>/dev/null || true; fi
    pg_stop
    rm -rf "$WORK"
}
trap cleanup EXIT

source bench/pg.sh
DB=herald_grown_$(date +%s)
pg_start
createdb "$DB"
JDBC="jdbc:postgresql://$PGHOST:$PGPORT/$DB?user=$PGUSER${PGPASSWORD:+&password=$PGPASSWORD}"
pg_statements_setup

if [ ! -f "$JAR" ]; then
    log "building $JAR"
    ./mvnw -q -B -pl deploy -am package -DskipTests
fi
unzip -o -j -q "$JAR" 'BOOT-INF/lib/postgresql-*.jar' -d "$WORK/lib"
DRIVER=(java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$(ls "$WORK"/lib/postgresql-*.jar)" bench/LoadDriver.java)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("",0)); print(s.getsockname()[1])')
BASE=http://localhost:$PORT
SYSTEM_KEY="hs.bench-$(head -c 24 /dev/urandom | base64 | tr -dc 'a-zA-Z0-9')"
ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
AUDIT_SIGNING_KEY=$(head -c 32 /dev/urandom | base64)
PAGE=1000000001
TOKEN=EAAB-bench-token

# start_herald [extra option…]
start_herald() {
    # shellcheck disable=SC2086
    java -Xmx"$HERALD_HEAP" $HERALD_OPTS -Daxoniq.update-checker.disabled=true -jar "$HERALD_JAR" --server.port="$PORT" \
        --spring.datasource.url="jdbc:postgresql://$PGHOST:$PGPORT/$DB" \
        --spring.datasource.username="$PGUSER" --spring.datasource.password="${PGPASSWORD:-}" \
        --herald.data-dir="$WORK/data" --herald.sandbox.enabled=true --herald.sandbox.allow-external-database=true \
        --herald.secrets.encryption-key="$ENCRYPTION_KEY" --herald.security.system-key="$SYSTEM_KEY" \
        --herald.audit.signing-key="$AUDIT_SIGNING_KEY" \
        --herald.security.rate-limit.limit-for-period=100000000 \
        ${REBUILD_PAGE_SIZE:+--herald.rebuild.page-size=$REBUILD_PAGE_SIZE} "$@" >> "$WORK/herald.log" 2>&1 &
    HERALD_PID=$!
    # a loaded machine may take minutes to start Herald: up to 15 of them
    for _ in $(seq 1 1800); do
        if curl -fs "$BASE/actuator/health" 2>/dev/null | grep -q UP; then
            # the sandbox keeps its state in memory: the page's token again after every start
            curl -fs -X POST "$BASE/sandbox/_admin/facebook/tokens" -H "Authorization: Bearer $SYSTEM_KEY" \
                -H 'Content-Type: application/json' -d "{\"token\":\"$TOKEN\",\"pageId\":\"$PAGE\",\"kind\":\"PAGE\"}"
            return 0
        fi
        kill -0 "$HERALD_PID" 2>/dev/null || { tail -50 "$WORK/herald.log" >&2; exit 1; }
        sleep 0.5
    done
    echo "Herald did not start" >&2; exit 1
}
stop_herald() { kill "$HERALD_PID"; wait "$HERALD_PID" || true; HERALD_PID=; }
measure() { local out; if out=$("${DRIVER[@]}" "$@" 2>>"$WORK/driver.err"); then log "$out"; echo "$out"; else echo "not measured: the load driver failed ($(tail -1 "$WORK/driver.err"))"; fi; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"; }
# ratios "A's figures" "B's figures" -> B ÷ A of each pair, and their median
ratios() { python3 -c "
import statistics, sys
r = [float(b) / float(a) for a, b in zip(sys.argv[1].split(), sys.argv[2].split())]
print(' '.join(f'{x:.3f}' for x in r), f'(median {statistics.median(r):.3f})')" "$1" "$2" 2>/dev/null || echo "not measured"; }
calc() { python3 -c "print(f'{$1:$2}')" 2>/dev/null || echo "not measured"; }
# CPU ticks so far of Herald and of the benchmark's own PostgreSQL cluster (0 on a server of others)
cpu_seconds() {
    local herald pg=0
    herald=$(awk '{print $14+$15}' "/proc/$HERALD_PID/stat")
    [ -n "$PG_OWN" ] && pg=$(pg_cpu_ticks)
    echo "$herald $pg $(getconf CLK_TCK)"
}
cpu_per() { python3 -c "a='$1'.split(); b='$2'.split(); t=int(b[2]); n=$3
print(f'Herald {(int(b[0])-int(a[0]))/t*1000/n:.2f} ms, PostgreSQL ' + (f'{(int(b[1])-int(a[1]))/t*1000/n:.2f} ms' if '$PG_OWN' else 'not measured (a server of others)'))"; }
commits() { psql -tAc "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()" -d "$DB"; }
statements_reset() { [ "$STATEMENTS" = on ] && psql -q -tAc 'SELECT pg_stat_statements_reset()' -d "$DB" >/dev/null; true; }
statements() {
    psql -tA -F' ' -d "$DB" <<'SQL'
SELECT coalesce(sum(calls) FILTER (WHERE query NOT LIKE '%bench-driver%'
           AND query !~* '^\s*(begin|commit|rollback|savepoint|release|start transaction|end)\y'), 0),
       coalesce(sum(calls) FILTER (WHERE query LIKE '%bench-driver%'), 0)
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
SQL
}
# one end-to-end phase of COUNT publications with CPU, statements and commits per publication
# (phase PREFIX COUNT) -> "line | cpu | statements | commits"
phase() {
    local prefix=$1 count=$2 cpu0 c0 out cpu st=0 drv=0 c1 i0 idle
    # what Herald commits while idle in 11 s, subtracted below (as bench/run.sh does)
    sleep 11; i0=$(commits); sleep 11; idle=$(( $(commits) - i0 ))
    statements_reset
    c0=$(commits); cpu0=$(cpu_seconds)
    out=$(measure e2e "$BASE" "$KEY" bench "$count" "$prefix" "$JDBC")
    cpu=$(cpu_per "$cpu0" "$(cpu_seconds)" "$count")
    [ "$STATEMENTS" = on ] && read -r st drv <<<"$(statements)"
    # the database's commit counter lags up to 10 s behind an idle backend's work
    sleep 11; c1=$(commits)
    echo "$out"
    echo "  CPU per publication:           $cpu"
    if [ "$STATEMENTS" = on ]; then
        echo "  statements per publication:    $(calc "$st/$count" .2f)"
        echo "  commits per publication:       $(calc "($c1-$c0-$drv-$idle)/$count" .2f)"
    else
        echo "  statements per publication:    not measured ($STATEMENTS)"
    fi
}

# end-to-end latency at LATENCY_RATE publications/s (latency_phase NAME), each store at the same point:
# Herald started before its projections were rebuilt, the database vacuumed (the rebuild rewrote every
# view row; autovacuum would otherwise clean them up during the measurement), LATENCY_WARMUP_COUNT
# publications end to end (the rebuild warmed no request path), then LATENCY_COUNT in an open loop
latency_phase() {
    psql -q -c 'VACUUM (ANALYZE)' -d "$DB"
    if [ "$LATENCY_WARMUP_COUNT" -gt 0 ]; then
        measure e2e "$BASE" "$KEY" bench "$LATENCY_WARMUP_COUNT" "warm-$1-" "$JDBC" >/dev/null
    fi
    measure latency "$BASE" "$KEY" bench "$LATENCY_RATE" "$LATENCY_COUNT" "latency-$1-" "$JDBC"
}

log "starting Herald on $PGHOST:$PGPORT/$DB"
start_herald
KEY=$(field key "$("${DRIVER[@]}" setup "$BASE" "$SYSTEM_KEY" bench "$PAGE" "$TOKEN")")

# --- 1. seed (and warm-up)
log "seed: $SEED_COUNT publications end to end"
SEED=$(measure e2e "$BASE" "$KEY" bench "$SEED_COUNT" seed- "$JDBC")

if [ -z "$REBUILD_ONLY" ]; then
# --- 2. the audit chain's cost: on, then off (restarted, warmed up as much), then on again
log "audit chain on: $CHAIN_COUNT publications"
CHAIN_ON=$(phase chain-on- "$CHAIN_COUNT"); log "$CHAIN_ON"
stop_herald
log "audit chain off: restart, $SEED_COUNT of warm-up, $CHAIN_COUNT measured"
start_herald --herald.audit.chain-enabled=false
measure e2e "$BASE" "$KEY" bench "$SEED_COUNT" warm-off- "$JDBC" >/dev/null
CHAIN_OFF=$(phase chain-off- "$CHAIN_COUNT"); log "$CHAIN_OFF"
stop_herald
start_herald
CHAIN_BACK=$(measure caughtup "$BASE" "$SYSTEM_KEY" "$JDBC" "$CATCH_UP_SECONDS")

# --- 3. the small store
SMALL_EVENTS=$(psql -tAc 'SELECT count(*) FROM domain_event_entry' -d "$DB")
log "the small store ($SMALL_EVENTS events): the calls, $QUERY_ROUNDS rounds each"
measure queries "$BASE" "$KEY" bench "$QUERY_WARMUP_ROUNDS" 1 "$JDBC" >/dev/null
SMALL=$(measure queries "$BASE" "$KEY" bench "$QUERY_ROUNDS" "$VERIFY_ROUNDS" "$JDBC")
SMALL_REBUILD=$(measure replay "$BASE" "$SYSTEM_KEY" "$JDBC")
log "the small store: end to end at $LATENCY_RATE/s, $LATENCY_COUNT publications after $LATENCY_WARMUP_COUNT of warm-up"
SMALL_LATENCY=$(latency_phase small)
else
SMALL_EVENTS=$(psql -tAc 'SELECT count(*) FROM domain_event_entry' -d "$DB")
fi

# --- 4. grow: copies of the stored publication streams, written while Herald is down
log "growing the store to $STORE_EVENTS events"
stop_herald
GROW_STARTED=$(date +%s.%N)
# with BENCH_REBUILD_ONLY the audit chain and the live verifier skip the copies too (the rebuild
# measured is the verifier's, and the chain has no part in it)
FOLLOWERS="'audit-chain', 'audit-verifier'"
[ -n "$REBUILD_ONLY" ] && FOLLOWERS="''"
psql -q -v ON_ERROR_STOP=1 -d "$DB" -v target="$STORE_EVENTS" -v followers="$FOLLOWERS" <<'SQL'
-- the copies: bench/copy-streams.sql, shared with the rebuild test on a grown store
\i bench/copy-streams.sql
SELECT pg_temp.copy_publication_streams(:target) AS copies \gset
VACUUM (ANALYZE) domain_event_entry;
-- the processors that act (the dispatcher, timers, webhooks) continue after the copies; the audit
-- chain and the live verifier follow them, and the projections are rebuilt
UPDATE token_entry SET token = convert_to(regexp_replace(convert_from(token, 'UTF8'),
        '"index":[0-9]+', '"index":' || (SELECT max(global_index) FROM domain_event_entry)), 'UTF8')
WHERE token IS NOT NULL AND processor_name NOT IN (:followers);
SQL
GROW_SECONDS=$(calc "$(date +%s.%N)-$GROW_STARTED" .1f)
GROWN_EVENTS=$(psql -tAc 'SELECT count(*) FROM domain_event_entry' -d "$DB")
log "grown to $GROWN_EVENTS events in $GROW_SECONDS s"
start_herald
log "the audit chain and the live verifier follow the copies"
FOLLOW=$(measure caughtup "$BASE" "$SYSTEM_KEY" "$JDBC" "$CATCH_UP_SECONDS")
# rebuild_once -> "rebuild line | CPU | statements per event"
rebuild_once() {
    local cpu0 out cpu st=0 sts="not measured ($STATEMENTS)"
    statements_reset
    cpu0=$(cpu_seconds)
    out=$(measure replay "$BASE" "$SYSTEM_KEY" "$JDBC")
    cpu=$(cpu_per "$cpu0" "$(cpu_seconds)" "$(field events "$out")/1000")
    if [ "$STATEMENTS" = on ]; then
        read -r st _ <<<"$(statements)"
        sts=$(calc "$st/$(field events "$out")" .4f)
    fi
    echo "$out | CPU per 1,000 events: $cpu | statements per event: $sts"
}
# the statements that took the database the longest since the last reset (top_statements N):
# "total ms | calls | ms per call | the statement's first 150 characters" lines
top_statements() {
    psql -tA -F' | ' -d "$DB" -v limit="$1" <<'SQL'
SELECT round(total_exec_time::numeric), calls, round((total_exec_time / calls)::numeric, 2),
       left(regexp_replace(query, '\s+', ' ', 'g'), 150)
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND query NOT LIKE '%bench-driver%' ORDER BY total_exec_time DESC LIMIT :limit
SQL
}
# rows inserted so far into each table of the database: "table count" lines
inserted_rows() {
    # a backend reports its counts to the statistics a second or more after its transaction: wait them out
    sleep 11
    psql -tA -F' ' -d "$DB" -c "SELECT relname, n_tup_ins FROM pg_stat_user_tables ORDER BY relname COLLATE \"C\""
}
# the tables a rebuild wrote: those with rows inserted between two inserted_rows answers, the store
# and the processors' tokens apart (rebuilt_tables BEFORE AFTER)
rebuilt_tables() {
    LC_ALL=C join <(echo "$1") <(echo "$2") | awk '$3 > $2 && $1 != "domain_event_entry" && $1 != "token_entry" {print $1}'
}
# the database's own rewrite of the rows a rebuild wrote (database_rewrite TABLE…): each table
# copied aside (not timed), then, timed, in one transaction that commits: every row deleted and the
# copy inserted back, as the rebuild's one transaction replaces them (the same rows, indexes and
# all, none of Herald's work); the copies dropped and the tables vacuumed after it, so the next
# rebuild follows no dead rows of this one -> "tables=… rows=N wall_seconds=S pg_cpu_seconds=C"
database_rewrite() {
    local table setup="" timed="BEGIN;" drop="" rows t0 c0 c1 seconds
    if [ "$#" -eq 0 ]; then echo "not measured: the statistics showed no table written"; return; fi
    for table in "$@"; do
        setup+="CREATE UNLOGGED TABLE bench_rewrite_$table AS SELECT * FROM $table;"
        timed+="DELETE FROM $table; INSERT INTO $table SELECT * FROM bench_rewrite_$table;"
        drop+="DROP TABLE IF EXISTS bench_rewrite_$table;"
    done
    if ! psql -q -v ON_ERROR_STOP=1 -d "$DB" -c "$setup" >/dev/null 2>>"$WORK/driver.err"; then
        psql -q -d "$DB" -c "$drop" >/dev/null 2>&1
        echo "not measured: the copies could not be made ($(tail -1 "$WORK/driver.err"))"; return
    fi
    rows=$(psql -tA -d "$DB" -c "SELECT $(printf "(SELECT count(*) FROM bench_rewrite_%s) + " "$@") 0")
    c0=$(pg_cpu_ticks); t0=$(date +%s.%N)
    if ! psql -q -v ON_ERROR_STOP=1 -d "$DB" -c "$timed COMMIT;" >/dev/null 2>>"$WORK/driver.err"; then
        psql -q -d "$DB" -c "$drop" >/dev/null
        echo "not measured: the rewrite failed ($(tail -1 "$WORK/driver.err"))"; return
    fi
    seconds=$(calc "$(date +%s.%N)-$t0" .2f); c1=$(pg_cpu_ticks)
    psql -q -v ON_ERROR_STOP=1 -d "$DB" -c "$drop" >/dev/null
    for table in "$@"; do psql -q -d "$DB" -c "VACUUM $table"; done
    echo "tables=$(IFS=,; echo "$*") rows=$rows wall_seconds=$seconds pg_cpu_seconds=$(calc "($c1-$c0)/$(getconf CLK_TCK)" .2f)"
}
# the database alone: its read of every event in store order, then its rewrite of the rebuilt rows,
# one after the other (database_alone EVENTS READ REWRITE) -> "events/s; the rebuild's ÷ it"
database_alone() {
    calc "$1/($1/$(field store_order_events_per_s "$2")+$(field wall_seconds "$3"))" .0f
}
if [ -n "$REBUILD_ONLY" ]; then
    echo "=== rebuild A/B on a grown store $(date -u +%FT%TZ) ==="
    echo "machine: $(nproc) cores, load average at start $LOAD_AT_START, $(free -m | awk '/Mem:/{print $2}') MB RAM, PostgreSQL $(psql -tAc 'SHOW server_version' -d "$DB" | head -1), Herald -Xmx$HERALD_HEAP $HERALD_OPTS${REBUILD_PAGE_SIZE:+ herald.rebuild.page-size=$REBUILD_PAGE_SIZE}"
    echo "grown store: $GROWN_EVENTS events (from $SMALL_EVENTS; copies written by SQL in $GROW_SECONDS s); followed: $FOLLOW"
    # restart_with jar: Herald started again with that jar, its processors caught up
    restart_with() {
        stop_herald
        HERALD_JAR=$1
        start_herald
        measure caughtup "$BASE" "$SYSTEM_KEY" "$JDBC" "$CATCH_UP_SECONDS" >/dev/null
    }
    # per jar, each round's seconds for every projection and for the slowest projection, for the summary
    declare -A AB_ALL=() AB_SLOWEST=()
    # the store's first rebuild deletes only the small store's rows and follows no other rebuild's
    # dead rows, so it is like no later one: one rebuild with the first jar before the rounds, not counted
    restart_with "${REBUILD_JARS[0]}"
    before=$(inserted_rows)
    echo "first rebuild, not counted ($(basename "$HERALD_JAR")): $(rebuild_once)"
    read -r -a REBUILT <<<"$(rebuilt_tables "$before" "$(inserted_rows)" | tr '\n' ' ')"
    for round in $(seq 1 "$REBUILD_ROUNDS"); do
        # every other round in the opposite order: a rebuild right after another tends to be slower (an A/A
        # of one jar gave the second of each pair 1.00 to 1.14 times the first's seconds), so no jar
        # may always come second
        order=()
        for jar in "${REBUILD_JARS[@]}"; do
            if [ $((round % 2)) -eq 0 ]; then order=("$jar" "${order[@]}"); else order+=("$jar"); fi
        done
        for jar in "${order[@]}"; do
            restart_with "$jar"
            load=$(cut -d' ' -f1-3 /proc/loadavg)
            logged=$(wc -l < "$WORK/herald.log")
            out=$(rebuild_once)
            top=""
            if [ "$REBUILD_TOP_STATEMENTS" -gt 0 ] && [ "$STATEMENTS" = on ]; then
                top=$(top_statements "$REBUILD_TOP_STATEMENTS" | sed 's/^/    /')
            fi
            rows=$(psql -tA -d "$DB" -c "SELECT string_agg(t || ' ' || h, ', ' ORDER BY t) FROM (
                SELECT 'publication_view' t, md5(string_agg(to_jsonb(v)::text, '' ORDER BY to_jsonb(v)::text)) h FROM publication_view v
                UNION ALL SELECT 'channel_connection_view', md5(string_agg(to_jsonb(v)::text, '' ORDER BY to_jsonb(v)::text)) FROM channel_connection_view v
                UNION ALL SELECT 'publication_hour_stats', md5(string_agg(to_jsonb(v)::text, '' ORDER BY to_jsonb(v)::text)) FROM publication_hour_stats v
                UNION ALL SELECT 'answer_time_buckets', md5(string_agg(to_jsonb(v)::text, '' ORDER BY to_jsonb(v)::text)) FROM answer_time_buckets v) x")
            read_out=$(measure read "$JDBC")
            rate=$(field events_per_s "$out")
            echo "round $round $(basename "$jar") (load $load → $(cut -d' ' -f1-3 /proc/loadavg)): $out"
            echo "  each projection, as Herald logged it:"
            each=$(tail -n +"$((logged + 1))" "$WORK/herald.log" | sed -n 's/.*: projection \(.* rebuilt from .*\)/    \1/p')
            echo "$each"
            if [ -n "$top" ]; then
                printf '  the statements that took the database the longest (total ms | calls | ms per call | statement):\n%s\n' "$top"
            fi
            AB_ALL[$jar]+="$(field seconds "$out") "
            AB_SLOWEST[$jar]+="$(sed -n 's/.* in \([0-9.]*\) s .*/\1/p' <<<"$each" | sort -g | tail -1) "
            echo "  the database's read: $read_out"
            echo "  rows after it (md5 of each table's rows in order; equal in every round but the channels', which follow the events each start of Herald appends): $rows"
            echo "  rebuild ÷ the database's read, store order: $(calc "$rate/$(field store_order_events_per_s "$read_out")" .3f); aggregate order: $(calc "$rate/$(field aggregate_order_events_per_s "$read_out")" .3f)"
            rewrite=$(database_rewrite "${REBUILT[@]}")
            alone=$(database_alone "$(field events "$out")" "$read_out" "$rewrite")
            echo "  the database's own rewrite of the rows the rebuild wrote: $rewrite"
            echo "  the database alone, its read in store order and then that rewrite: $alone events/s; rebuild ÷ it: $(calc "$rate/$alone" .3f)"
        done
    done
    if [ "${#REBUILD_JARS[@]}" -gt 1 ]; then
        # each later jar against the first, round by round: a change shows as the same side in every round
        first=${REBUILD_JARS[0]}
        for jar in "${REBUILD_JARS[@]:1}"; do
            echo "A/B: $(basename "$jar") ÷ $(basename "$first"), seconds round by round: every projection $(ratios "${AB_ALL[$first]}" "${AB_ALL[$jar]}"); the slowest projection $(ratios "${AB_SLOWEST[$first]}" "${AB_SLOWEST[$jar]}")"
        done
    fi
    exit 0
fi
log "rebuilding every projection"
BEFORE=$(inserted_rows)
statements_reset
CPU_0=$(cpu_seconds)
REBUILD=$(measure replay "$BASE" "$SYSTEM_KEY" "$JDBC")
REBUILD_CPU=$(cpu_per "$CPU_0" "$(cpu_seconds)" "$(field events "$REBUILD")/1000")
REBUILD_STATEMENTS="not measured ($STATEMENTS)"
if [ "$STATEMENTS" = on ]; then
    read -r ST _ <<<"$(statements)"
    REBUILD_STATEMENTS=$(calc "$ST/$(field events "$REBUILD")" .4f)
fi
# after the statements are counted: the wait for the tables' statistics is idle time, not the rebuild's
read -r -a REBUILT <<<"$(rebuilt_tables "$BEFORE" "$(inserted_rows)" | tr '\n' ' ')"
READ=$(measure read "$JDBC")
REWRITE=$(database_rewrite "${REBUILT[@]}")
ALONE=$(database_alone "$(field events "$REBUILD")" "$READ" "$REWRITE")

# --- 5. the grown store
log "the grown store: end to end at $LATENCY_RATE/s, $LATENCY_COUNT publications after $LATENCY_WARMUP_COUNT of warm-up"
GROWN_LATENCY=$(latency_phase grown)
log "the grown store: the calls, $QUERY_ROUNDS rounds each"
measure queries "$BASE" "$KEY" bench "$QUERY_WARMUP_ROUNDS" 1 "$JDBC" >/dev/null
GROWN=$(measure queries "$BASE" "$KEY" bench "$QUERY_ROUNDS" "$VERIFY_ROUNDS" "$JDBC")

REBUILD_RATE=$(field events_per_s "$REBUILD")
cat <<EOF
=== Herald on a grown store $(date -u +%FT%TZ) ===
machine: $(nproc) cores, load average at start $LOAD_AT_START, at end $(cut -d' ' -f1-3 /proc/loadavg), $(free -m | awk '/Mem:/{print $2}') MB RAM, PostgreSQL $(psql -tAc 'SHOW server_version' -d "$DB" | head -1) $([ -n "$PG_OWN" ] && echo "(the benchmark's own cluster, pg_stat_statements preloaded)" || echo "on $PGHOST"), Herald -Xmx$HERALD_HEAP $HERALD_OPTS${REBUILD_PAGE_SIZE:+ herald.rebuild.page-size=$REBUILD_PAGE_SIZE}
seed, $SEED_COUNT publications (the warm-up):  $SEED
audit chain on, $CHAIN_COUNT publications:    $CHAIN_ON
audit chain off, $CHAIN_COUNT publications:   $CHAIN_OFF
  the chain back on, caught up:            $CHAIN_BACK
small store: $SMALL_EVENTS events; every projection rebuilt: $SMALL_REBUILD
grown store: $GROWN_EVENTS events (copies written by SQL in $GROW_SECONDS s)
  audit chain and live verifier follow the copies: $FOLLOW ($(calc "($GROWN_EVENTS-$SMALL_EVENTS)/$(field seconds "$FOLLOW")" .0f) events/s)
  every projection rebuilt:                $REBUILD
    CPU per 1,000 events:                  $REBUILD_CPU
    statements per event in the store:     $REBUILD_STATEMENTS (the driver's polls of the store apart; the admin API's included)
  the database's own read of every event:  $READ
  rebuild ÷ the database's read, store order: $(calc "$REBUILD_RATE/$(field store_order_events_per_s "$READ")" .3f); aggregate order: $(calc "$REBUILD_RATE/$(field aggregate_order_events_per_s "$READ")" .3f)
  the database's own rewrite of the rows the rebuild wrote: $REWRITE
  the database alone, its read in store order and then that rewrite: $ALONE events/s; rebuild ÷ it: $(calc "$REBUILD_RATE/$ALONE" .3f)
end to end at $LATENCY_RATE publications/s, $LATENCY_COUNT in an open loop, each store right after its rebuild, a vacuum and $LATENCY_WARMUP_COUNT publications of warm-up:
  small store: $SMALL_LATENCY
  grown store: $GROWN_LATENCY
calls: p50 / p99 in ms, small → grown (grown ÷ small); e2e_${LATENCY_RATE}_per_s from each planned request until SUCCEEDED in the store
EOF
python3 - "$SMALL"$'\n'"$SMALL_LATENCY" "$GROWN"$'\n'"$GROWN_LATENCY" <<'PY'
import re, sys
def parse(block):
    out = {}
    for line in block.splitlines():
        f = dict(re.findall(r'(\w+)=(\S+)', line))
        if 'call' in f:
            out[f['call']] = f
    return out
small, grown = parse(sys.argv[1]), parse(sys.argv[2])
for name, s in small.items():
    g = grown.get(name)
    if g is None:
        print(f"  {name:22} not measured on the grown store"); continue
    r = lambda k: float(g[k]) / float(s[k]) if float(s[k]) > 0 else float('nan')
    # an end-to-end line says SUCCEEDED when every publication of it succeeded
    ok = ('200', 'SUCCEEDED')
    status = '' if s['status'] in ok and g['status'] in ok else f"  (HTTP {s['status']} → {g['status']})"
    print(f"  {name:22} p50 {s['p50_ms']:>8} → {g['p50_ms']:>9} ({r('p50_ms'):6.2f})   "
          f"p99 {s['p99_ms']:>8} → {g['p99_ms']:>9} ({r('p99_ms'):6.2f}){status}")
PY
