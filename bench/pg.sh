# The database a benchmark runs on; sourced by bench/run.sh and bench/grown.sh, which set WORK (a
# temporary folder) and DB (a database name) first and call pg_stop from their cleanup.
#
# Unless BENCH_PGHOST is set, a PostgreSQL cluster of the benchmark's own: initdb in $WORK/pg,
# pg_stat_statements preloaded, a free port on 127.0.0.1, removed with $WORK. Its statement counts
# are never "not measured" and its CPU is the benchmark's alone. Needs the server binaries (initdb,
# pg_ctl, postgres; Debian's postgresql package, pg_stat_statements included); as root, the cluster
# runs as the user postgres. BENCH_PGHOST (with PGPORT/PGUSER/PGPASSWORD) uses a running server
# instead: statements are then counted only where it preloads pg_stat_statements, and the CPU of
# every postgres process on the machine is taken as the database's.
PG_OWN=
PG_BIN=$(dirname "$(command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)")
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$PG_BIN/$1" "${@:2}"; else "$PG_BIN/$1" "${@:2}"; fi; }

pg_start() {
    if [ -n "${BENCH_PGHOST:-}" ]; then
        export PGHOST=$BENCH_PGHOST PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
        return
    fi
    [ -x "$PG_BIN/initdb" ] || { echo "initdb is missing: install the PostgreSQL server, or set BENCH_PGHOST" >&2; exit 2; }
    PG_OWN=yes
    PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    chmod 755 "$WORK"
    mkdir "$WORK/pg"
    [ "$(id -u)" = 0 ] && chown postgres "$WORK/pg"
    as_pg initdb -D "$WORK/pg" -U postgres -A trust >/dev/null
    as_pg pg_ctl -D "$WORK/pg" -l "$WORK/pg/server.log" -w -o "-p $PGPORT -k $WORK/pg -c listen_addresses=127.0.0.1 \
        -c shared_preload_libraries=pg_stat_statements -c max_connections=100 -c shared_buffers=256MB" start >/dev/null
    export PGHOST=127.0.0.1 PGPORT PGUSER=postgres
    unset PGPASSWORD
}

pg_stop() {
    if [ -n "$PG_OWN" ]; then as_pg pg_ctl -D "$WORK/pg" -m fast stop >/dev/null 2>&1 || true
    else dropdb --if-exists "$DB" >/dev/null 2>&1 || true; fi
}

# STATEMENTS=on where pg_stat_statements can count the database's statements, else why not
pg_statements_setup() {
    STATEMENTS=on
    if [ "$(psql -tAc "SELECT count(*) FROM pg_settings WHERE name = 'shared_preload_libraries' AND setting LIKE '%pg_stat_statements%'" -d "$DB")" = 1 ]; then
        psql -q -d "$DB" -c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements' || STATEMENTS="off: CREATE EXTENSION failed"
    else
        STATEMENTS="off: the server does not preload pg_stat_statements (ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements', then restart it; or leave BENCH_PGHOST unset)"
    fi
}

# CPU ticks used so far by the database: the own cluster's postmaster with its children's (a backend
# that ended is in the postmaster's, so the sum never falls) and its live backends; on a server of
# others, every postgres process of the machine
pg_cpu_ticks() {
    local pg=0 pid postmaster
    if [ -n "$PG_OWN" ]; then
        postmaster=$(head -1 "$WORK/pg/postmaster.pid")
        pg=$(awk '{print $14+$15+$16+$17}' "/proc/$postmaster/stat" 2>/dev/null || echo 0)
        for pid in $(pgrep -P "$postmaster"); do
            pg=$((pg + $(awk '{print $14+$15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
        done
    else
        for pid in $(pgrep -u postgres 2>/dev/null || pgrep -x postgres); do
            pg=$((pg + $(awk '{print $14+$15+$16+$17}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
        done
    fi
    echo "$pg"
}
