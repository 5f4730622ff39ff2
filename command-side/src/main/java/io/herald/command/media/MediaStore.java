package io.herald.command.media;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.media.MediaView;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Uploaded images, one row per workspace and media id, the bytes in the row. A row is written
 * once, whole, and never changed: the id is the bytes' hash, so there is nothing to update. It is
 * removed by a {@code DELETE} or by the retention sweep, and only while no unfinished publication
 * names it ({@code media_use} joined with {@code entry_operation}, see {@link MediaUses}).
 * {@code media_usage} keeps each workspace's stored bytes in step, in the same transactions.
 */
@Repository
public class MediaStore {

    private static final String VIEW_COLUMNS = "media_id, content_type, byte_count, width, height, created_at";
    /** An unfinished publication (its entry operation still OPEN) names the image {@code m}. */
    private static final String IN_USE = """
            EXISTS (SELECT 1 FROM media_use u JOIN entry_operation o ON o.publication_id = u.publication_id
                     WHERE u.workspace_id = m.workspace_id AND u.media_id = m.media_id AND o.state = 'OPEN')""";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    public MediaStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactionManager);
    }

    /** An image with its bytes. */
    public record StoredMedia(MediaView view, byte[] content) {
    }

    /** What {@link #add} did. */
    public enum Addition { STORED, ALREADY_STORED, OVER_QUOTA }

    /** What {@link #remove} did. */
    public enum Removal { REMOVED, NOT_FOUND, IN_USE }

    /**
     * Stores the image unless this workspace has it already or it would take the workspace's images
     * over {@code quotaBytes}. The workspace's usage row is raised by a conditional update first,
     * which locks it until commit: a second upload of the workspace waits and then sees the first
     * one's bytes, so two at once cannot both pass the quota. An image already stored (the same
     * bytes arrived concurrently) rolls the raise back.
     */
    public Addition add(WorkspaceId workspace, MediaView view, byte[] content, long quotaBytes) {
        return transactions.execute(status -> {
            jdbc.update("INSERT INTO media_usage (workspace_id, stored_bytes) VALUES (?, 0) ON CONFLICT DO NOTHING",
                    workspace.value());
            int admitted = jdbc.update("UPDATE media_usage SET stored_bytes = stored_bytes + ?"
                    + " WHERE workspace_id = ? AND stored_bytes + ? <= ?",
                    view.bytes(), workspace.value(), view.bytes(), quotaBytes);
            if (admitted == 0) {
                status.setRollbackOnly();
                return Addition.OVER_QUOTA;
            }
            int inserted = jdbc.update("INSERT INTO media (workspace_id, media_id, content_type, byte_count, width,"
                            + " height, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                            + " ON CONFLICT (workspace_id, media_id) DO NOTHING",
                    workspace.value(), view.mediaId().value(), view.contentType(), view.bytes(), view.width(),
                    view.height(), content, Timestamp.from(view.createdAt()));
            if (inserted == 0) {
                status.setRollbackOnly();
                return Addition.ALREADY_STORED;
            }
            return Addition.STORED;
        });
    }

    /** The bytes of images the workspace keeps (a first, unlocked look; {@link #add} decides). */
    public long storedBytes(WorkspaceId workspace) {
        return jdbc.query("SELECT stored_bytes FROM media_usage WHERE workspace_id = ?",
                (rs, n) -> rs.getLong(1), workspace.value()).stream().findFirst().orElse(0L);
    }

    /**
     * Removes the image, its uses and its bytes from the workspace's usage, unless an unfinished
     * publication names it. The image's row is locked first, so a sweep or a second delete waits.
     */
    public Removal remove(WorkspaceId workspace, MediaId media) {
        return transactions.execute(status -> {
            Optional<Object[]> row = jdbc.query("SELECT m.byte_count, " + IN_USE
                            + " FROM media m WHERE m.workspace_id = ? AND m.media_id = ? FOR UPDATE OF m",
                    (rs, n) -> new Object[] {rs.getLong(1), rs.getBoolean(2)}, workspace.value(), media.value())
                    .stream().findFirst();
            if (row.isEmpty()) {
                return Removal.NOT_FOUND;
            }
            if ((Boolean) row.get()[1]) {
                return Removal.IN_USE;
            }
            jdbc.update("DELETE FROM media WHERE workspace_id = ? AND media_id = ?", workspace.value(), media.value());
            jdbc.update("DELETE FROM media_use WHERE workspace_id = ? AND media_id = ?", workspace.value(),
                    media.value());
            jdbc.update("UPDATE media_usage SET stored_bytes = stored_bytes - ? WHERE workspace_id = ?",
                    row.get()[0], workspace.value());
            return Removal.REMOVED;
        });
    }

    /**
     * Removes up to {@code batch} images that were uploaded before {@code cutoff}, that no
     * publication named since, and that no unfinished publication names, with their uses and their
     * bytes from the usage rows; one statement, rows another sweep holds are skipped.
     *
     * @return how many were removed
     */
    public int removeUnusedSince(Instant cutoff, int batch) {
        Timestamp at = Timestamp.from(cutoff);
        Integer removed = jdbc.queryForObject("""
                WITH gone AS (
                    DELETE FROM media d WHERE (d.workspace_id, d.media_id) IN (
                        SELECT m.workspace_id, m.media_id FROM media m
                         WHERE m.created_at < ?
                           AND NOT EXISTS (SELECT 1 FROM media_use r WHERE r.workspace_id = m.workspace_id
                                              AND r.media_id = m.media_id AND r.used_at >= ?)
                           AND NOT\s""" + IN_USE + """

                         ORDER BY m.created_at LIMIT ? FOR UPDATE OF m SKIP LOCKED)
                    RETURNING d.workspace_id, d.media_id, d.byte_count),
                uses AS (
                    DELETE FROM media_use u USING gone g WHERE u.workspace_id = g.workspace_id AND u.media_id = g.media_id),
                usage AS (
                    UPDATE media_usage s SET stored_bytes = s.stored_bytes - t.bytes
                      FROM (SELECT workspace_id, sum(byte_count) AS bytes FROM gone GROUP BY workspace_id) t
                     WHERE s.workspace_id = t.workspace_id)
                SELECT count(*) FROM gone""", Integer.class, at, at, batch);
        return removed == null ? 0 : removed;
    }

    public Optional<MediaView> find(WorkspaceId workspace, MediaId media) {
        return jdbc.query("SELECT " + VIEW_COLUMNS + " FROM media WHERE workspace_id = ? AND media_id = ?",
                (rs, row) -> view(rs), workspace.value(), media.value()).stream().findFirst();
    }

    /**
     * The image with its bytes while {@code publication}, a publication of the same workspace that
     * names it, has not finished (its entry operation is OPEN); else empty.
     */
    public Optional<StoredMedia> findForPublicationInFlight(WorkspaceId workspace, MediaId media,
                                                            PublicationId publication) {
        return jdbc.query("SELECT " + VIEW_COLUMNS + ", content FROM media m WHERE m.workspace_id = ?"
                        + " AND m.media_id = ? AND EXISTS (SELECT 1 FROM media_use u JOIN entry_operation o"
                        + " ON o.publication_id = u.publication_id AND o.workspace_id = u.workspace_id"
                        + " WHERE u.workspace_id = m.workspace_id AND u.media_id = m.media_id"
                        + " AND u.publication_id = ? AND o.state = 'OPEN')",
                (rs, row) -> new StoredMedia(view(rs), rs.getBytes("content")), workspace.value(), media.value(),
                publication.value()).stream().findFirst();
    }

    public Optional<StoredMedia> findWithContent(WorkspaceId workspace, MediaId media) {
        return jdbc.query("SELECT " + VIEW_COLUMNS + ", content FROM media WHERE workspace_id = ? AND media_id = ?",
                (rs, row) -> new StoredMedia(view(rs), rs.getBytes("content")), workspace.value(), media.value())
                .stream().findFirst();
    }

    private static MediaView view(ResultSet rs) throws SQLException {
        return new MediaView(MediaId.of(rs.getString("media_id")), rs.getString("content_type"),
                rs.getLong("byte_count"), rs.getInt("width"), rs.getInt("height"),
                rs.getTimestamp("created_at").toInstant());
    }
}
