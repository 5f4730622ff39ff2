package io.herald.command.publishing;

import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ProviderUsage;
import io.herald.adapters.port.Quota;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Each connection's budget in PostgreSQL (table {@code connection_budget}), shared by every node:
 * one row per window of the channel's documented quotas, and a {@code provider} row that holds the
 * time a rate-limit answer asked Herald to wait. A batch of starts reads a connection's rows once,
 * locked until it commits (so another node's batch on the same connection waits and then sees
 * what this one took), counts its starts in memory and writes the rows back before its commit;
 * a batch that rolls back takes nothing. Workspaces never share a row, so one workspace's budget
 * never slows another's.
 *
 * <p>A batch's calls go out together after its commit, and the provider counts each in the window
 * it arrives in: so a batch's starts count in the window of its commit, not of each start. A
 * window that ends while the batch runs hands the batch's starts on to the next one, and a commit
 * within {@link #inFlight} of a window's end counts them in the next window, as the calls may
 * reach the provider after it ends; the rest of the ending window then starts nothing. How late
 * the commit is comes from a monotonic clock, measured from the last start, so the windows follow
 * the starts' own {@code now}.
 */
public class ConnectionBudgets {

    static final String PROVIDER_ROW = "provider";
    /** What the channel listing names a budget set by a provider's rate-limit answer. */
    static final String RATE_LIMIT_SOURCE = "rate-limit-headers";
    /** The longest window a rate-limit answer spends. */
    static final Duration SPENT_BY_A_REFUSAL = Duration.ofHours(1);
    /**
     * How long after a batch's commit its calls may still reach the provider, on a busy node: the
     * calls are handed to threads, and the provider may queue them before it counts them (never
     * more than a quarter of a window).
     */
    static final Duration IN_FLIGHT = Duration.ofSeconds(10);

    private final JdbcTemplate jdbc;
    private final ChannelPlugins plugins;
    private final LongSupplier nanoTime;

    public ConnectionBudgets(JdbcTemplate jdbc, ChannelPlugins plugins) {
        this(jdbc, plugins, System::nanoTime);
    }

    /** @param nanoTime a monotonic clock (as {@link System#nanoTime()}): how long a batch ran since a start */
    ConnectionBudgets(JdbcTemplate jdbc, ChannelPlugins plugins, LongSupplier nanoTime) {
        this.jdbc = jdbc;
        this.plugins = plugins;
        this.nanoTime = nanoTime;
    }

    /** How long after its commit a batch's calls may still be on their way, for a window of {@code length}. */
    static Duration inFlight(Duration length) {
        Duration quarter = length.dividedBy(4);
        return quarter.compareTo(IN_FLIGHT) < 0 ? quarter : IN_FLIGHT;
    }

    /**
     * Takes one call from every window of the connection's budget.
     *
     * @return empty when the attempt may start now (and was counted), else the time the budget allows it
     */
    public Optional<Instant> take(WorkspaceId workspace, ChannelId channel, ChannelType type, Instant now) {
        Account account = account(workspace, channel, type);
        return account.take(now);
    }

    /** A provider's "wait": no attempt on the connection starts before {@code until}, on any node. */
    public void block(WorkspaceId workspace, ChannelId channel, Instant until) {
        jdbc.update("""
                INSERT INTO connection_budget (workspace_id, channel_id, window_name, blocked_until, source)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (workspace_id, channel_id, window_name) DO UPDATE
                SET blocked_until = GREATEST(connection_budget.blocked_until, EXCLUDED.blocked_until)""",
                workspace.value(), channel.value(), PROVIDER_ROW, Timestamp.from(until), RATE_LIMIT_SOURCE);
    }

    /**
     * A provider's rate-limit answer to a call made at {@code answeredAt}: no attempt on the
     * connection starts before {@code until}, on any node, and the budget shrinks: every window of
     * up to {@link #SPENT_BY_A_REFUSAL} that holds {@code answeredAt} is spent, so what waits starts
     * in a later window, not at once. A day's quota is not: one refusal does not say it is used up.
     */
    public void refused(WorkspaceId workspace, ChannelId channel, Instant until, Instant answeredAt) {
        block(workspace, channel, until);
        spend(workspace, channel, answeredAt);
    }

    /** Every window of the connection's budget up to an hour long that holds {@code at} is spent. */
    void spend(WorkspaceId workspace, ChannelId channel, Instant at) {
        Timestamp when = Timestamp.from(at);
        jdbc.update("""
                UPDATE connection_budget SET used = capacity
                 WHERE workspace_id = ? AND channel_id = ? AND capacity IS NOT NULL AND window_start <= ?
                   AND window_start + make_interval(secs => window_seconds) > ? AND window_seconds <= ?""",
                workspace.value(), channel.value(), when, when, SPENT_BY_A_REFUSAL.toSeconds());
    }

    /**
     * What a provider answer said about the connection's budget ({@link ProviderUsage}): each window
     * of its quotas that holds the call counts at least as used as the provider says (other apps may
     * share the budget), and a spent budget with a reset time holds the connection until then.
     */
    public void observe(WorkspaceId workspace, ChannelId channel, ChannelType type, ProviderUsage usage,
                        Instant now) {
        Instant until = usage.waitUntil(now);
        if (until != null) {
            block(workspace, channel, until);
        }
        Instant at = usage.observedAt() != null ? usage.observedAt() : now;
        for (Quota quota : plugins.find(type).map(ChannelPlugin::quotas).orElse(List.of())) {
            long seconds = quota.window().toSeconds();
            Instant start = Instant.ofEpochSecond(Math.floorDiv(at.getEpochSecond(), seconds) * seconds);
            int used = usage.usedOf(quota.capacity());
            // only the window the call was counted in, and only upwards: Herald's own count includes calls under way
            jdbc.update("""
                    UPDATE connection_budget SET used = GREATEST(used, ?)
                     WHERE workspace_id = ? AND channel_id = ? AND window_name = ? AND window_start = ?""",
                    used, workspace.value(), channel.value(), quota.name(), Timestamp.from(start));
        }
    }

    private Account account(WorkspaceId workspace, ChannelId channel, ChannelType type) {
        List<Quota> quotas = plugins.find(type).map(ChannelPlugin::quotas).orElse(List.of());
        if (!CurrentUnitOfWork.isStarted()) {
            // alone: read, take and write back at once
            Account account = load(workspace, channel, quotas);
            account.flushAfterEachTake = true;
            return account;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        Map<String, Account> accounts = root.getOrComputeResource(ConnectionBudgets.class.getName(),
                key -> new HashMap<>());
        return accounts.computeIfAbsent(workspace.value() + "/" + channel.value(), key -> {
            Account account = load(workspace, channel, quotas);
            root.onPrepareCommit(u -> account.flush());
            return account;
        });
    }

    private Account load(WorkspaceId workspace, ChannelId channel, List<Quota> quotas) {
        if (!quotas.isEmpty()) {
            // rows exist before they are locked: two nodes' first batches on a connection then queue on them
            List<Object[]> rows = new ArrayList<>();
            for (Quota quota : quotas) {
                rows.add(new Object[] {workspace.value(), channel.value(), quota.name(), quota.window().toSeconds(),
                        quota.capacity(), quota.source()});
            }
            jdbc.batchUpdate("""
                    INSERT INTO connection_budget (workspace_id, channel_id, window_name, window_seconds, capacity,
                                                   used, source)
                    VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (workspace_id, channel_id, window_name) DO NOTHING""",
                    rows);
        }
        Map<String, Window> stored = new LinkedHashMap<>();
        // only a connection with quotas counts its starts: only its rows are locked
        jdbc.query("""
                SELECT window_name, window_start, used, blocked_until FROM connection_budget
                 WHERE workspace_id = ? AND channel_id = ? ORDER BY window_name""" + (quotas.isEmpty() ? ""
                        : " FOR UPDATE"),
                rs -> {
                    Timestamp start = rs.getTimestamp(2);
                    Timestamp blocked = rs.getTimestamp(4);
                    stored.put(rs.getString(1), new Window(rs.getString(1), 0, null, null,
                            start == null ? null : start.toInstant(), rs.getInt(3),
                            blocked == null ? null : blocked.toInstant()));
                }, workspace.value(), channel.value());
        List<Window> windows = new ArrayList<>();
        for (Quota quota : quotas) {
            Window row = stored.get(quota.name());
            windows.add(new Window(quota.name(), quota.capacity(), quota.window(), quota.source(),
                    row == null ? null : row.start, row == null ? 0 : row.used, row == null ? null : row.blockedUntil));
        }
        Window provider = stored.get(PROVIDER_ROW);
        return new Account(workspace, channel, windows, provider == null ? null : provider.blockedUntil);
    }

    /** One window of a connection's budget as this transaction sees it. */
    private static final class Window {
        final String name;
        final int capacity;
        final Duration length;
        final String source;
        Instant start;
        int used;
        final Instant blockedUntil;

        Window(String name, int capacity, Duration length, String source, Instant start, int used,
               Instant blockedUntil) {
            this.name = name;
            this.capacity = capacity;
            this.length = length;
            this.source = source;
            this.start = start;
            this.used = used;
            this.blockedUntil = blockedUntil;
        }

        /**
         * The window that contains {@code now}: a new one holds only the {@code pending} starts of
         * this batch, whose calls go out after its commit, so in that window or later.
         */
        void roll(Instant now, int pending) {
            Instant current = startOf(now);
            if (start == null || start.isBefore(current)) {
                start = current;
                used = pending;
            }
        }

        Instant startOf(Instant at) {
            long seconds = length.toSeconds();
            return Instant.ofEpochSecond(Math.floorDiv(at.getEpochSecond(), seconds) * seconds);
        }

        Instant end() {
            return start.plus(length);
        }
    }

    /** A connection's budget within one transaction. */
    private final class Account {
        private final WorkspaceId workspace;
        private final ChannelId channel;
        private final List<Window> windows;
        private final Instant blockedUntil;
        private boolean dirty;
        private boolean flushAfterEachTake;
        /** Starts taken since the last write: their calls go out after the commit that follows it. */
        private int pending;
        private Instant lastTake;
        private long lastTakeNanos;

        Account(WorkspaceId workspace, ChannelId channel, List<Window> windows, Instant blockedUntil) {
            this.workspace = workspace;
            this.channel = channel;
            this.windows = windows;
            this.blockedUntil = blockedUntil;
        }

        Optional<Instant> take(Instant now) {
            Instant allowed = blockedUntil != null && blockedUntil.isAfter(now) ? blockedUntil : null;
            for (Window window : windows) {
                window.roll(now, pending);
                if (window.blockedUntil != null && window.blockedUntil.isAfter(now)) {
                    allowed = later(allowed, window.blockedUntil);
                }
                if (window.start.isAfter(now)) {
                    // the window of now is over for this connection: starts near its end went to the next one
                    allowed = later(allowed, window.start);
                }
                if (window.used >= window.capacity) {
                    allowed = later(allowed, window.end());
                }
            }
            if (allowed != null) {
                return Optional.of(allowed);
            }
            if (windows.isEmpty()) {
                return Optional.empty();
            }
            windows.forEach(window -> window.used++);
            pending++;
            lastTake = now;
            lastTakeNanos = nanoTime.getAsLong();
            dirty = true;
            if (flushAfterEachTake) {
                flush();
            }
            return Optional.empty();
        }

        /**
         * Writes the windows back just before the commit: the starts taken count in the window their
         * calls may reach the provider in, the one {@link #inFlight} after now, if a later one.
         */
        void flush() {
            if (!dirty) {
                return;
            }
            Instant committing = lastTake.plusNanos(Math.max(0, nanoTime.getAsLong() - lastTakeNanos));
            List<Object[]> rows = new ArrayList<>();
            for (Window window : windows) {
                Instant landing = window.startOf(committing.plus(inFlight(window.length)));
                if (window.start.isBefore(landing)) {
                    window.start = landing;
                    window.used = pending;
                }
                rows.add(new Object[] {Timestamp.from(window.start), window.used, workspace.value(), channel.value(),
                        window.name});
            }
            jdbc.batchUpdate("""
                    UPDATE connection_budget SET window_start = ?, used = ?
                     WHERE workspace_id = ? AND channel_id = ? AND window_name = ?""", rows);
            dirty = false;
            pending = 0;
        }

        private static Instant later(Instant a, Instant b) {
            return a == null || b.isAfter(a) ? b : a;
        }
    }
}
