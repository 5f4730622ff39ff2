package io.herald.query.publication;

import static io.herald.query.jdbc.JdbcColumns.instant;
import static io.herald.query.jdbc.JdbcColumns.timestamp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationPage;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationView;
import io.herald.query.jdbc.JdbcColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/** The {@code publication_view} table: written by the projection, read by the query handlers. */
@Repository
public class PublicationViewRepository implements PublicationRows {

    private static final TypeReference<List<PublicationView.Attempt>> ATTEMPTS = new TypeReference<>() { };
    private static final TypeReference<List<PublicationView.Reconciliation>> RECONCILIATIONS =
            new TypeReference<>() { };
    private static final TypeReference<List<PublicationView.Step>> STEPS = new TypeReference<>() { };

    private static final String COLUMNS = """
            publication_id, workspace_id, calendar_entry_id, content_version, channel_id, channel_type, action,
            status, content_hash, scheduled_at, requested_at, updated_at, provider_ref_id, provider_ref_url,
            needs_decision, decision_reason, attempts, reconciliations, last_sequence, target_ref_id,
            target_ref_url, steps, decision_step, held_reason, verified_at, vanished_at""";
    private static final String INSERT = "INSERT INTO publication_view (" + COLUMNS + ") VALUES (:publicationId,"
            + " :workspaceId, :calendarEntryId, :contentVersion, :channelId, :channelType, :action, :status,"
            + " :contentHash, :scheduledAt, :requestedAt, :updatedAt, :providerRefId, :providerRefUrl,"
            + " :needsDecision, :decisionReason, CAST(:attempts AS jsonb), CAST(:reconciliations AS jsonb),"
            + " :sequence, :targetRefId, :targetRefUrl, CAST(:steps AS jsonb), :decisionStep, :heldReason,"
            + " :verifiedAt, :vanishedAt)";

    private final NamedParameterJdbcTemplate jdbc;
    private final JdbcColumns columns;
    private final PublicationCounters counters;
    private final RowMapper<PublicationView> viewMapper = this::view;

    public PublicationViewRepository(NamedParameterJdbcTemplate jdbc, ObjectMapper objectMapper) {
        this.jdbc = jdbc;
        this.columns = new JdbcColumns(objectMapper);
        this.counters = new PublicationCounters(jdbc);
    }

    /**
     * The view as this table gives it back: its own timestamp columns hold microseconds, and the
     * driver rounds an instant to the nearest one when it sends it (the lists, kept as JSON, keep
     * every digit). A view made in memory reads as the stored one after this.
     */
    static PublicationView asStored(PublicationView v) {
        return new PublicationView(v.publicationId(), v.workspaceId(), v.calendarEntryId(), v.contentVersion(),
                v.channelId(), v.channelType(), v.action(), v.status(), v.contentHash(), micros(v.scheduledAt()),
                micros(v.requestedAt()), v.providerRef(), v.attempts(), v.reconciliations(), v.needsDecision(),
                v.decisionReason(), micros(v.updatedAt()), v.targetRef(), v.steps(), v.decisionStep(), v.heldReason(),
                v.throttledUntil(),
                v.asOf(), micros(v.verifiedAt()), micros(v.vanishedAt()));
    }

    private static java.time.Instant micros(java.time.Instant instant) {
        return instant == null ? null
                : instant.plusNanos(500).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    /** A stored view with the aggregate sequence number of the last event applied to it. */
    record Stored(PublicationView view, long lastSequence) {
    }

    @Override
    public Optional<Stored> findStored(PublicationId id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM publication_view WHERE publication_id = :id",
                        new MapSqlParameterSource("id", id.value()),
                        (rs, n) -> new Stored(view(rs, n), rs.getLong("last_sequence")))
                .stream().findFirst();
    }

    /** The stored rows of those publications, by id; a publication without a row is not in the map. */
    @Override
    public Map<PublicationId, Stored> findStored(Collection<PublicationId> ids) {
        Map<PublicationId, Stored> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        jdbc.query("SELECT " + COLUMNS + " FROM publication_view WHERE publication_id = ANY(:ids)",
                new MapSqlParameterSource("ids", ids.stream().map(PublicationId::value).toArray(String[]::new)),
                (RowCallbackHandler) rs -> found.put(PublicationId.of(rs.getString("publication_id")),
                        new Stored(view(rs, 0), rs.getLong("last_sequence"))));
        return found;
    }

    /**
     * Inserts the first row of a publication; a second delivery of its first event changes nothing.
     * Here and in every write below, the publication counts change with the rows.
     */
    @Override
    public void insert(PublicationView view, long sequence) {
        if (jdbc.update(INSERT + " ON CONFLICT (publication_id) DO NOTHING", params(view, sequence)) == 1) {
            PublicationCounters.Changes changes = new PublicationCounters.Changes();
            changes.inserted(view);
            counters.add(changes);
        }
    }

    /**
     * Replaces a row's state; the sequence condition keeps an older event from overwriting a newer
     * state even if two deliveries ever raced.
     */
    @Override
    public void update(PublicationView view, long sequence) {
        PublicationCounters.Counted before = counters.lock(List.of(view.publicationId().value()))
                .get(view.publicationId().value());
        if (before == null) {
            return;
        }
        jdbc.update("""
                UPDATE publication_view SET status = :status, updated_at = :updatedAt,
                    provider_ref_id = :providerRefId, provider_ref_url = :providerRefUrl,
                    needs_decision = :needsDecision, decision_reason = :decisionReason,
                    attempts = CAST(:attempts AS jsonb), reconciliations = CAST(:reconciliations AS jsonb),
                    last_sequence = :sequence, target_ref_id = :targetRefId, target_ref_url = :targetRefUrl,
                    steps = CAST(:steps AS jsonb), decision_step = :decisionStep, held_reason = :heldReason,
                    verified_at = :verifiedAt, vanished_at = :vanishedAt
                WHERE publication_id = :publicationId AND last_sequence < :sequence""", params(view, sequence));
        PublicationCounters.Changes changes = new PublicationCounters.Changes();
        changes.written(before, view, sequence);
        counters.add(changes);
    }

    /**
     * Writes the final state of several rows, and the counts with them, in one statement: new rows
     * are inserted, existing ones replaced unless they already hold a later event (the same guard
     * as {@link #update}). The rows go as one array per column, so the statement is the same
     * whatever their number.
     */
    @Override
    public void saveAll(List<Stored> rows) {
        if (rows.isEmpty()) {
            return;
        }
        Map<String, PublicationCounters.Counted> before =
                counters.lock(rows.stream().map(row -> row.view().publicationId().value()).toList());
        PublicationCounters.Changes changes = new PublicationCounters.Changes();
        for (Stored row : rows) {
            changes.written(before.get(row.view().publicationId().value()), row.view(), row.lastSequence());
        }
        MapSqlParameterSource params = columnArrays(rows);
        String countsAdded = counters.addition(changes, params);
        jdbc.update((countsAdded == null ? "" : "WITH written AS (") + SAVE_ALL
                + (countsAdded == null ? "" : ") " + countsAdded), params);
    }

    private static final String SAVE_ALL = "INSERT INTO publication_view (" + COLUMNS + ") SELECT * FROM unnest("
            + "CAST(:publicationId AS text[]), CAST(:workspaceId AS text[]), CAST(:calendarEntryId AS text[]),"
            + " CAST(:contentVersion AS bigint[]), CAST(:channelId AS text[]), CAST(:channelType AS text[]),"
            + " CAST(:action AS text[]), CAST(:status AS text[]), CAST(:contentHash AS text[]),"
            + " CAST(:scheduledAt AS timestamptz[]), CAST(:requestedAt AS timestamptz[]),"
            + " CAST(:updatedAt AS timestamptz[]), CAST(:providerRefId AS text[]), CAST(:providerRefUrl AS text[]),"
            + " CAST(:needsDecision AS boolean[]), CAST(:decisionReason AS text[]), CAST(:attempts AS jsonb[]),"
            + " CAST(:reconciliations AS jsonb[]), CAST(:sequence AS bigint[]), CAST(:targetRefId AS text[]),"
            + " CAST(:targetRefUrl AS text[]), CAST(:steps AS jsonb[]), CAST(:decisionStep AS text[]),"
            + " CAST(:heldReason AS text[]), CAST(:verifiedAt AS timestamptz[]), CAST(:vanishedAt AS timestamptz[]))"
            + """
             ON CONFLICT (publication_id) DO UPDATE SET status = EXCLUDED.status,
                updated_at = EXCLUDED.updated_at, provider_ref_id = EXCLUDED.provider_ref_id,
                provider_ref_url = EXCLUDED.provider_ref_url, needs_decision = EXCLUDED.needs_decision,
                decision_reason = EXCLUDED.decision_reason, attempts = EXCLUDED.attempts,
                reconciliations = EXCLUDED.reconciliations, last_sequence = EXCLUDED.last_sequence,
                target_ref_id = EXCLUDED.target_ref_id, target_ref_url = EXCLUDED.target_ref_url,
                steps = EXCLUDED.steps, decision_step = EXCLUDED.decision_step, held_reason = EXCLUDED.held_reason,
                verified_at = EXCLUDED.verified_at, vanished_at = EXCLUDED.vanished_at
            WHERE publication_view.last_sequence < EXCLUDED.last_sequence""";

    /**
     * The rows' values, one array per column under the names {@link #params} uses. An instant goes
     * as text rounded to the microsecond as the driver rounds a single value ({@link #asStored}).
     */
    private MapSqlParameterSource columnArrays(List<Stored> rows) {
        int n = rows.size();
        Map<String, Object[]> arrays = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            Stored row = rows.get(i);
            Map<String, Object> values = params(row.view(), row.lastSequence()).getValues();
            for (Map.Entry<String, Object> value : values.entrySet()) {
                Object v = value.getValue();
                Object[] column = arrays.computeIfAbsent(value.getKey(), k -> switch (k) {
                    case "contentVersion", "sequence" -> new Long[n];
                    case "needsDecision" -> new Boolean[n];
                    default -> new String[n];
                });
                if (v instanceof java.time.OffsetDateTime time) {
                    column[i] = micros(time.toInstant()).toString();
                } else if (column instanceof String[] && v != null) {
                    column[i] = v.toString();
                } else if (column instanceof Long[] && v != null) {
                    column[i] = ((Number) v).longValue();
                } else {
                    column[i] = v;
                }
            }
        }
        MapSqlParameterSource params = new MapSqlParameterSource();
        arrays.forEach(params::addValue);
        return params;
    }

    /** Every row and the counts with them: a rebuild writes both again. */
    @Override
    public void deleteAll() {
        jdbc.getJdbcTemplate().update("DELETE FROM publication_view");
        counters.deleteAll();
    }

    /** The publication, if it belongs to that workspace. */
    public Optional<PublicationView> find(WorkspaceId workspace, PublicationId id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM publication_view"
                                + " WHERE publication_id = :id AND workspace_id = :workspace",
                        new MapSqlParameterSource("id", id.value()).addValue("workspace", workspace.value()),
                        viewMapper)
                .stream().findFirst();
    }

    public PublicationPage list(PublicationListRequest request) {
        return list(request, PublicationSearch.NONE);
    }

    /**
     * A page of the list. Every filter is a condition on one of the list's indexes, and the order is
     * the index's own, so the page is read from the index and stops after {@code limit + 1} rows,
     * however long the workspace's history is. A search by text is two such reads, joined with
     * UNION ALL: the publication id through the primary key, and the entry prefix as a range of the
     * pattern-ops entry index (an {@code OR} of the two, or a {@code LIKE} with a bound parameter,
     * leaves the planner nothing but the whole workspace); only the matches are sorted.
     */
    public PublicationPage list(PublicationListRequest request, PublicationSearch search) {
        boolean newestFirst = request.order() == PublicationListRequest.Order.NEWEST_FIRST;
        int limit = PublicationListRequest.effectiveLimit(request.limit());
        MapSqlParameterSource p = new MapSqlParameterSource("workspace", request.workspaceId().value())
                // one row more than asked tells whether a next page exists
                .addValue("fetch", limit + 1);
        StringBuilder where = new StringBuilder(" WHERE workspace_id = :workspace");
        if (request.status() != null) {
            where.append(" AND status = :status");
            p.addValue("status", request.status().name());
        }
        if (request.channelId() != null) {
            where.append(" AND channel_id = :channel");
            p.addValue("channel", request.channelId().value());
        }
        if (request.calendarEntryId() != null) {
            where.append(" AND calendar_entry_id = :entry");
            p.addValue("entry", request.calendarEntryId());
        }
        if (request.needsDecision() != null) {
            // written out, not a parameter: a prepared plan then knows it may read the decision queue's partial index
            where.append(request.needsDecision() ? " AND needs_decision" : " AND NOT needs_decision");
        }
        appendFilters(where, p, search);
        if (request.after() != null) {
            where.append(newestFirst
                    ? " AND (requested_at, publication_id) < (:afterAt, :afterId)"
                    : " AND (requested_at, publication_id) > (:afterAt, :afterId)");
            p.addValue("afterAt", timestamp(request.after().requestedAt()));
            p.addValue("afterId", request.after().publicationId());
        }
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM ");
        if (search.text() == null) {
            sql.append("publication_view").append(where);
        } else {
            sql.append("(SELECT ").append(COLUMNS).append(" FROM publication_view").append(where)
                    .append(" AND publication_id = :text UNION ALL SELECT ").append(COLUMNS)
                    .append(" FROM publication_view").append(where).append(entryPrefix(p, search.text()))
                    .append(" AND publication_id <> :text) found");
            p.addValue("text", search.text());
        }
        sql.append(newestFirst
                ? " ORDER BY requested_at DESC, publication_id DESC"
                : " ORDER BY requested_at ASC, publication_id ASC");
        sql.append(" LIMIT :fetch");
        List<PublicationView> rows = jdbc.query(sql.toString(), p, viewMapper);
        if (rows.size() <= limit) {
            return new PublicationPage(rows, null);
        }
        List<PublicationView> page = rows.subList(0, limit);
        PublicationView last = page.get(limit - 1);
        return new PublicationPage(List.copyOf(page),
                new PublicationCursor(last.requestedAt(), last.publicationId().value()).encode());
    }

    private static void appendFilters(StringBuilder sql, MapSqlParameterSource p, PublicationSearch search) {
        if (search.held() != null) {
            sql.append(search.held() ? " AND status = :held" : " AND status <> :held");
            p.addValue("held", PublicationSearch.HELD);
        }
        if (search.from() != null) {
            sql.append(" AND requested_at >= :from");
            p.addValue("from", timestamp(search.from()));
        }
        if (search.to() != null) {
            sql.append(" AND requested_at < :to");
            p.addValue("to", timestamp(search.to()));
        }
    }

    /**
     * The entries starting with {@code prefix}: in byte order (UTF-8 keeps code point order) they
     * lie from the prefix up to, not including, the prefix with its last code point raised by one.
     * The operators are the pattern-ops index's, so the range is its index condition in a prepared
     * plan too; the LIKE, wildcards escaped, is what decides.
     */
    private static String entryPrefix(MapSqlParameterSource p, String prefix) {
        StringBuilder condition = new StringBuilder(" AND calendar_entry_id ~>=~ :entryFrom");
        p.addValue("entryFrom", prefix);
        String upper = prefixUpperBound(prefix);
        if (upper != null) {
            condition.append(" AND calendar_entry_id ~<~ :entryBefore");
            p.addValue("entryBefore", upper);
        }
        condition.append(" AND calendar_entry_id LIKE :entryPrefix ESCAPE '\\'");
        p.addValue("entryPrefix", prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        return condition.toString();
    }

    /** The least text above every text starting with {@code prefix}; null when there is none (no bound). */
    static String prefixUpperBound(String prefix) {
        int[] points = prefix.codePoints().toArray();
        for (int i = points.length - 1; i >= 0; i--) {
            int next = points[i] + 1;
            if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
                next = Character.MAX_SURROGATE + 1;
            }
            if (next <= Character.MAX_CODE_POINT) {
                return new String(points, 0, i) + Character.toString(next);
            }
        }
        return null;
    }

    private MapSqlParameterSource params(PublicationView v, long sequence) {
        return new MapSqlParameterSource()
                .addValue("publicationId", v.publicationId().value())
                .addValue("workspaceId", v.workspaceId().value())
                .addValue("calendarEntryId", v.calendarEntryId())
                .addValue("contentVersion", v.contentVersion())
                .addValue("channelId", v.channelId().value())
                .addValue("channelType", v.channelType().wireName())
                .addValue("action", v.action().name())
                .addValue("status", v.status().name())
                .addValue("contentHash", v.contentHash())
                .addValue("scheduledAt", timestamp(v.scheduledAt()))
                .addValue("requestedAt", timestamp(v.requestedAt()))
                .addValue("updatedAt", timestamp(v.updatedAt()))
                .addValue("providerRefId", v.providerRef() == null ? null : v.providerRef().id())
                .addValue("providerRefUrl", v.providerRef() == null ? null : v.providerRef().url())
                .addValue("needsDecision", v.needsDecision())
                .addValue("decisionReason", v.decisionReason())
                .addValue("attempts", columns.toJson(v.attempts()))
                .addValue("reconciliations", columns.toJson(v.reconciliations()))
                .addValue("sequence", sequence)
                .addValue("targetRefId", v.targetRef() == null ? null : v.targetRef().id())
                .addValue("targetRefUrl", v.targetRef() == null ? null : v.targetRef().url())
                .addValue("steps", columns.toJson(v.steps()))
                .addValue("decisionStep", v.decisionStep() == null ? null : v.decisionStep().wireName())
                .addValue("heldReason", v.heldReason())
                .addValue("verifiedAt", timestamp(v.verifiedAt()))
                .addValue("vanishedAt", timestamp(v.vanishedAt()));
    }

    private PublicationView view(ResultSet rs, int rowNum) throws SQLException {
        String refId = rs.getString("provider_ref_id");
        String refUrl = rs.getString("provider_ref_url");
        String targetId = rs.getString("target_ref_id");
        String targetUrl = rs.getString("target_ref_url");
        String decisionStep = rs.getString("decision_step");
        PublicationView view = new PublicationView(
                PublicationId.of(rs.getString("publication_id")),
                WorkspaceId.of(rs.getString("workspace_id")),
                rs.getString("calendar_entry_id"),
                rs.getLong("content_version"),
                ChannelId.of(rs.getString("channel_id")),
                ChannelType.of(rs.getString("channel_type")),
                PublicationAction.valueOf(rs.getString("action")),
                PublicationStatus.valueOf(rs.getString("status")),
                rs.getString("content_hash"),
                instant(rs, "scheduled_at"),
                instant(rs, "requested_at"),
                refId == null && refUrl == null ? null : new ProviderRef(refId, refUrl),
                columns.fromJson(rs.getString("attempts"), ATTEMPTS),
                columns.fromJson(rs.getString("reconciliations"), RECONCILIATIONS),
                rs.getBoolean("needs_decision"),
                rs.getString("decision_reason"),
                instant(rs, "updated_at"),
                targetId == null && targetUrl == null ? null : new ProviderRef(targetId, targetUrl),
                columns.fromJson(rs.getString("steps"), STEPS),
                decisionStep == null ? null : PublicationStep.fromWireName(decisionStep),
                rs.getString("held_reason"),
                instant(rs, "verified_at"),
                instant(rs, "vanished_at"));
        // a row written before steps existed: its single step follows the post
        return view.steps().isEmpty() ? withSteps(view, StepViews.derived(view)) : view;
    }

    private static PublicationView withSteps(PublicationView v, List<PublicationView.Step> steps) {
        return new PublicationView(v.publicationId(), v.workspaceId(), v.calendarEntryId(), v.contentVersion(),
                v.channelId(), v.channelType(), v.action(), v.status(), v.contentHash(), v.scheduledAt(),
                v.requestedAt(), v.providerRef(), v.attempts(), v.reconciliations(), v.needsDecision(),
                v.decisionReason(), v.updatedAt(), v.targetRef(), steps,
                v.needsDecision() ? PublicationStep.postStepOf(v.action()) : null, v.heldReason(), v.verifiedAt(),
                v.vanishedAt());
    }
}
