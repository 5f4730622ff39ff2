package io.herald.command.media;

import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.media.MediaView;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Uploaded images, one row per workspace and media id, the bytes in the row. A row is written
 * once, whole, and never changed: the id is the bytes' hash, so there is nothing to update.
 */
@Repository
public class MediaStore {

    private static final String VIEW_COLUMNS = "media_id, content_type, byte_count, width, height, created_at";

    private final JdbcTemplate jdbc;

    public MediaStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** An image with its bytes. */
    public record StoredMedia(MediaView view, byte[] content) {
    }

    /** Stores the image unless this workspace has it already; true when it was new. */
    public boolean add(WorkspaceId workspace, MediaView view, byte[] content) {
        int inserted = jdbc.update("INSERT INTO media (workspace_id, media_id, content_type, byte_count, width,"
                        + " height, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                        + " ON CONFLICT (workspace_id, media_id) DO NOTHING",
                workspace.value(), view.mediaId().value(), view.contentType(), view.bytes(), view.width(),
                view.height(), content, Timestamp.from(view.createdAt()));
        return inserted == 1;
    }

    public Optional<MediaView> find(WorkspaceId workspace, MediaId media) {
        return jdbc.query("SELECT " + VIEW_COLUMNS + " FROM media WHERE workspace_id = ? AND media_id = ?",
                (rs, row) -> view(rs), workspace.value(), media.value()).stream().findFirst();
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
