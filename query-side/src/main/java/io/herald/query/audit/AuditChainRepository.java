package io.herald.query.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The chain's tables ({@code audit_chain}, {@code audit_chain_head}, {@code audit_checkpoint},
 * {@code audit_signing_key}). Only the audit-chain processor, which has one segment and so one
 * writer at a time, appends to the chain.
 */
@Repository
public class AuditChainRepository {

    /** A chained event: where it is in the store and in the chain, and its hashes. */
    public record Link(long position, long chainOrder, String workspaceId, String prevHash, String hash) {
    }

    /** A signed chain head. {@code at} is kept as the text that was signed. */
    public record Checkpoint(String workspaceId, long position, long chainOrder, String hash, String at, String keyId,
                             String signature) {
    }

    /** A key that signed checkpoints; {@code from} and {@code until} are its first and last signature. */
    public record SigningKey(String keyId, String publicKey, Instant from, Instant until) {
    }

    private record Head(String workspaceId, long position, long chainOrder, String hash, long events) {
    }

    private final NamedParameterJdbcTemplate jdbc;
    private final EventStoreReader store;
    private final ObjectMapper json;

    public AuditChainRepository(NamedParameterJdbcTemplate jdbc, EventStoreReader store, ObjectMapper objectMapper) {
        this.jdbc = jdbc;
        this.store = store;
        this.json = objectMapper;
    }

    /**
     * Chains the events at these positions, in this order, after the heads of their workspaces'
     * chains; one already chained (a batch handled again after a crash) is left as it is. Runs in
     * the caller's transaction: two statements per batch, whatever its size (read the events with
     * their chains' heads; append the links and move the heads).
     */
    void chain(List<Long> positions) {
        if (positions.isEmpty()) {
            return;
        }
        Set<Long> chained = new HashSet<>();
        Map<Long, StoredEvent> events = new HashMap<>();
        Map<Long, String> workspaces = new HashMap<>();
        Map<String, Head> heads = new HashMap<>();
        long order = 0;
        for (EventStoreReader.Located located : store.at(positions)) {
            long position = located.event().position();
            String workspace = located.workspaceId() == null ? AuditChain.NO_WORKSPACE : located.workspaceId();
            events.put(position, located.event());
            workspaces.put(position, workspace);
            if (located.chained()) {
                chained.add(position);
            }
            if (located.headOrder() != null) {
                heads.putIfAbsent(workspace, new Head(workspace, located.headPosition(), located.headOrder(),
                        located.headHash(), located.headEvents()));
            }
            order = located.lastChainOrder();
        }
        if (events.isEmpty()) {
            return;
        }
        List<Link> links = new ArrayList<>();
        for (Long position : positions) {
            StoredEvent event = events.get(position);
            if (event == null || !chained.add(position)) {
                continue;
            }
            String workspace = workspaces.get(position);
            Head head = heads.get(workspace);
            String prev = head == null ? AuditChain.ORIGIN : head.hash();
            ObjectNode line = AuditChain.line(json, event, workspace);
            String hash = AuditChain.hash(prev, line);
            order++;
            links.add(new Link(position, order, workspace, prev, hash));
            heads.put(workspace, new Head(workspace, position, order, hash, head == null ? 1 : head.events() + 1));
        }
        if (links.isEmpty()) {
            return;
        }
        Set<String> touched = new HashSet<>();
        links.forEach(l -> touched.add(l.workspaceId()));
        List<Head> changed = touched.stream().map(heads::get).toList();
        // one statement: the links appended, and the heads moved past them
        jdbc.update("""
                WITH links AS (
                    INSERT INTO audit_chain (global_index, chain_order, workspace_id, prev_hash, hash)
                    SELECT * FROM unnest(CAST(:positions AS bigint[]), CAST(:orders AS bigint[]),
                                         CAST(:workspaces AS varchar[]), CAST(:prev AS char(64)[]),
                                         CAST(:hashes AS char(64)[])))
                INSERT INTO audit_chain_head (workspace_id, global_index, chain_order, hash, events)
                SELECT * FROM unnest(CAST(:headWorkspaces AS varchar[]), CAST(:headPositions AS bigint[]),
                                     CAST(:headOrders AS bigint[]), CAST(:headHashes AS char(64)[]),
                                     CAST(:headEvents AS bigint[]))
                ON CONFLICT (workspace_id) DO UPDATE SET global_index = EXCLUDED.global_index,
                    chain_order = EXCLUDED.chain_order, hash = EXCLUDED.hash, events = EXCLUDED.events""",
                new MapSqlParameterSource("positions", links.stream().map(Link::position).toArray(Long[]::new))
                        .addValue("orders", links.stream().map(Link::chainOrder).toArray(Long[]::new))
                        .addValue("workspaces", links.stream().map(Link::workspaceId).toArray(String[]::new))
                        .addValue("prev", links.stream().map(Link::prevHash).toArray(String[]::new))
                        .addValue("hashes", links.stream().map(Link::hash).toArray(String[]::new))
                        .addValue("headWorkspaces", changed.stream().map(Head::workspaceId).toArray(String[]::new))
                        .addValue("headPositions", changed.stream().map(Head::position).toArray(Long[]::new))
                        .addValue("headOrders", changed.stream().map(Head::chainOrder).toArray(Long[]::new))
                        .addValue("headHashes", changed.stream().map(Head::hash).toArray(String[]::new))
                        .addValue("headEvents", changed.stream().map(Head::events).toArray(Long[]::new)));
    }

    /** The chain position of the event at {@code position}, or of the last one chained at or before it. */
    long chainOrderAfter(long position) {
        if (position <= 0) {
            return 0;
        }
        Long exact = jdbc.queryForList("SELECT chain_order FROM audit_chain WHERE global_index = :p",
                new MapSqlParameterSource("p", position), Long.class).stream().findFirst().orElse(null);
        if (exact != null) {
            return exact;
        }
        Long before = jdbc.queryForObject("SELECT COALESCE(max(chain_order), 0) FROM audit_chain"
                + " WHERE global_index <= :p", new MapSqlParameterSource("p", position), Long.class);
        return before == null ? 0 : before;
    }

    /**
     * Checkpoints every chain that grew since its last checkpoint: its head, signed now.
     *
     * @return how many were stored
     */
    public int checkpoint(AuditSigner signer, Instant now) {
        List<Head> grown = jdbc.query("""
                SELECT h.* FROM audit_chain_head h
                WHERE NOT EXISTS (SELECT 1 FROM audit_checkpoint c
                                  WHERE c.workspace_id = h.workspace_id AND c.chain_order >= h.chain_order)""",
                (rs, i) -> new Head(rs.getString("workspace_id"), rs.getLong("global_index"), rs.getLong("chain_order"),
                        rs.getString("hash"), rs.getLong("events")));
        store(signer, grown.stream().map(h -> new Link(h.position(), h.chainOrder(), h.workspaceId(), null, h.hash()))
                .toList(), now);
        return grown.size();
    }

    /**
     * The checkpoints an export ends with, one for each chain it holds, covering the chain's last
     * line in it ({@code lastLines}: workspace → that line; {@code lastOrder}: the export's last
     * chain position). Where a chain's newest stored checkpoint at or before its last line is
     * older than that line (or it has none), the line is signed now with {@code signer} (absent:
     * nothing is signed and the export ends with what is stored) and stored as a checkpoint as the
     * recurring task stores one. A checkpoint is stored at most once per chain and position: when
     * another export or the recurring task stored one there first, that one is kept, and it is
     * the one answered, so every checkpoint an export shows is a row of {@code audit_checkpoint}.
     */
    List<Checkpoint> closingCheckpoints(Map<String, Link> lastLines, long lastOrder, Optional<AuditSigner> signer,
                                        Instant now) {
        List<Checkpoint> stored = checkpointsAtOrBefore(lastLines.keySet(), lastOrder);
        List<Link> open = AuditChain.uncovered(lastLines, stored);
        if (open.isEmpty() || signer.isEmpty()) {
            return stored;
        }
        store(signer.get(), open, now);
        return checkpointsAtOrBefore(lastLines.keySet(), lastOrder);
    }

    /** Signs these chain rows with {@code at} = now and stores them as checkpoints, keeping any stored there first. */
    private void store(AuditSigner signer, List<Link> heads, Instant now) {
        if (heads.isEmpty()) {
            return;
        }
        String at = now.toString();
        List<MapSqlParameterSource> rows = new ArrayList<>();
        for (Link head : heads) {
            String signature = signer.sign(AuditChain.signedText(head.workspaceId(), head.position(), head.hash(), at));
            rows.add(new MapSqlParameterSource("ws", head.workspaceId()).addValue("position", head.position())
                    .addValue("order", head.chainOrder()).addValue("hash", head.hash()).addValue("at", at)
                    .addValue("key", signer.keyId()).addValue("signature", signature));
        }
        // the primary key (workspace_id, chain_order): a second signature of the same position is not stored
        jdbc.batchUpdate("""
                INSERT INTO audit_checkpoint (workspace_id, global_index, chain_order, hash, signed_at, key_id, signature)
                VALUES (:ws, :position, :order, :hash, :at, :key, :signature) ON CONFLICT DO NOTHING""",
                rows.toArray(MapSqlParameterSource[]::new));
        jdbc.update("""
                INSERT INTO audit_signing_key (key_id, public_key, first_used, last_used) VALUES (:key, :pub, :now, :now)
                ON CONFLICT (key_id) DO UPDATE SET last_used = GREATEST(audit_signing_key.last_used, EXCLUDED.last_used)""",
                new MapSqlParameterSource("key", signer.keyId()).addValue("pub", signer.publicKey())
                        .addValue("now", Timestamp.from(now)));
    }

    /**
     * The newest checkpoint of each of these workspaces (null: every workspace) at or before the
     * chain position {@code chainOrder}.
     */
    List<Checkpoint> checkpointsAtOrBefore(Collection<String> workspaces, long chainOrder) {
        MapSqlParameterSource p = new MapSqlParameterSource("order", chainOrder);
        String filter = "";
        if (workspaces != null) {
            if (workspaces.isEmpty()) {
                return List.of();
            }
            filter = " AND workspace_id = ANY(:ws)";
            p.addValue("ws", workspaces.toArray(String[]::new));
        }
        return jdbc.query("SELECT DISTINCT ON (workspace_id) * FROM audit_checkpoint WHERE chain_order <= :order"
                + filter + " ORDER BY workspace_id, chain_order DESC", p, (rs, i) -> new Checkpoint(
                rs.getString("workspace_id"), rs.getLong("global_index"), rs.getLong("chain_order"),
                rs.getString("hash"), rs.getString("signed_at"), rs.getString("key_id"), rs.getString("signature")));
    }

    /**
     * Where each chain starts in an export that begins after the chain position {@code cut}: for
     * every chain (of this workspace; null: every workspace) with rows both at or before and after
     * it, its newest checkpoint at or before it, or null when it has none there (the chain then
     * starts at its origin). A chain with no row at or before {@code cut} starts at its origin anyway.
     */
    Map<String, Checkpoint> exportStarts(String workspace, long cut) {
        MapSqlParameterSource p = new MapSqlParameterSource("cut", cut);
        String filter = "";
        if (workspace != null) {
            filter = " AND h.workspace_id = :ws";
            p.addValue("ws", workspace);
        }
        Map<String, Checkpoint> starts = new java.util.LinkedHashMap<>();
        jdbc.query("""
                SELECT h.workspace_id AS chain, k.* FROM audit_chain_head h
                LEFT JOIN LATERAL (SELECT * FROM audit_checkpoint k WHERE k.workspace_id = h.workspace_id
                                   AND k.chain_order <= :cut ORDER BY k.chain_order DESC LIMIT 1) k ON true
                WHERE h.chain_order > :cut AND EXISTS (SELECT 1 FROM audit_chain c
                      WHERE c.workspace_id = h.workspace_id AND c.chain_order <= :cut)""" + filter + " ORDER BY h.workspace_id", p, (RowCallbackHandler) rs -> starts.put(rs.getString("chain"),
                rs.getString("key_id") == null ? null : new Checkpoint(rs.getString("workspace_id"),
                        rs.getLong("global_index"), rs.getLong("chain_order"), rs.getString("hash"),
                        rs.getString("signed_at"), rs.getString("key_id"), rs.getString("signature"))));
        return starts;
    }

    /** Every key that signed a checkpoint, the oldest first. */
    public List<SigningKey> keys() {
        return jdbc.query("SELECT * FROM audit_signing_key ORDER BY first_used", (rs, i) -> new SigningKey(
                rs.getString("key_id"), rs.getString("public_key"), rs.getTimestamp("first_used").toInstant(),
                rs.getTimestamp("last_used").toInstant()));
    }

    /** The last chain position (0 while the chain is empty). */
    long lastChainOrder() {
        Long last = jdbc.getJdbcTemplate().queryForObject("SELECT COALESCE(max(chain_order), 0) FROM audit_chain",
                Long.class);
        return last == null ? 0 : last;
    }

    /**
     * For each workspace with a chain row in ({@code afterOrder}, {@code throughOrder}]: the stored
     * hash of its last row at or before {@code afterOrder} (absent when the range holds its first
     * row). One statement, whatever the number of workspaces.
     */
    Map<String, String> hashesBefore(long afterOrder, long throughOrder) {
        Map<String, String> hashes = new HashMap<>();
        jdbc.query("""
                SELECT w.workspace_id, (SELECT c.hash FROM audit_chain c
                                        WHERE c.workspace_id = w.workspace_id AND c.chain_order <= :after
                                        ORDER BY c.chain_order DESC LIMIT 1) AS hash
                FROM (SELECT DISTINCT workspace_id FROM audit_chain
                      WHERE chain_order > :after AND chain_order <= :through) w""",
                new MapSqlParameterSource("after", afterOrder).addValue("through", throughOrder),
                (RowCallbackHandler) rs -> {
                    if (rs.getString("hash") != null) {
                        hashes.put(rs.getString("workspace_id"), rs.getString("hash"));
                    }
                });
        return hashes;
    }

    /**
     * A workspace's newest checkpoint with what the tables hold now where it points: the chain's
     * hash at its chain position (null: no such row) and the event at its store position (null:
     * none).
     */
    record SignedHead(Checkpoint checkpoint, String chainHash, String aggregateId, Long sequence) {
    }

    List<SignedHead> newestCheckpoints() {
        return jdbc.getJdbcTemplate().query("""
                SELECT DISTINCT ON (k.workspace_id) k.*, c.hash AS chain_hash, e.aggregate_identifier,
                       e.sequence_number
                FROM audit_checkpoint k
                LEFT JOIN audit_chain c ON c.chain_order = k.chain_order AND c.global_index = k.global_index
                                           AND c.workspace_id = k.workspace_id
                LEFT JOIN domain_event_entry e ON e.global_index = k.global_index
                ORDER BY k.workspace_id, k.chain_order DESC""", (rs, i) -> new SignedHead(new Checkpoint(
                rs.getString("workspace_id"), rs.getLong("global_index"), rs.getLong("chain_order"),
                rs.getString("hash"), rs.getString("signed_at"), rs.getString("key_id"), rs.getString("signature")),
                rs.getString("chain_hash"), rs.getString("aggregate_identifier"),
                rs.getObject("sequence_number") == null ? null : rs.getLong("sequence_number")));
    }

    /** How far the chain is: the last position chained and the events chained. */
    public record Progress(long chainedThrough, long eventsChained) {
    }

    public Progress progress() {
        return jdbc.getJdbcTemplate().queryForObject("SELECT COALESCE(max(global_index), 0) AS through,"
                        + " COALESCE(sum(events), 0) AS events FROM audit_chain_head",
                (rs, i) -> new Progress(rs.getLong("through"), rs.getLong("events")));
    }
}
