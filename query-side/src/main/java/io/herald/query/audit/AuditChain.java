package io.herald.query.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The hash chain of the audit export (docs/audit.md). An export line is the event as
 * {@link StoredEvent} writes it plus {@code workspaceId}, the chain it belongs to; its
 * {@code hash} is the lowercase hex SHA-256 of {@code prevHash + "\n" + canonical line}, where the
 * canonical line is the line without {@code prevHash} and {@code hash} in RFC 8785 form
 * ({@link CanonicalJson}). The first event of a workspace has {@link #ORIGIN} as its prevHash.
 */
public final class AuditChain {

    /** The prevHash of a workspace's first event. */
    public static final String ORIGIN = "0".repeat(64);
    public static final String PREV_HASH = "prevHash";
    public static final String HASH = "hash";
    public static final String WORKSPACE = "workspaceId";
    /** The chain of an event that names no workspace. */
    public static final String NO_WORKSPACE = "";

    private AuditChain() {
    }

    /** The export line of an event, without its hashes. */
    public static ObjectNode line(ObjectMapper json, StoredEvent event, String workspace) {
        ObjectNode line = json.valueToTree(event);
        line.put(WORKSPACE, workspace);
        return line;
    }

    /** The hash of a line (its own hash fields, if any, left out) after {@code prevHash}. */
    public static String hash(String prevHash, ObjectNode line) {
        ObjectNode content = line.deepCopy();
        content.remove(PREV_HASH);
        content.remove(HASH);
        return sha256(prevHash + "\n" + CanonicalJson.of(content));
    }

    /**
     * The last lines, of those an export holds for each chain ({@code lastLines}: workspace → its
     * last line), that no checkpoint covers: those whose chain's newest checkpoint at or before
     * the export's last line ({@code checkpoints}, at most one a chain) is at an earlier chain
     * position, or which have none. In the order of {@code lastLines}.
     */
    static List<AuditChainRepository.Link> uncovered(Map<String, AuditChainRepository.Link> lastLines,
                                                     Collection<AuditChainRepository.Checkpoint> checkpoints) {
        Map<String, Long> signedThrough = new HashMap<>();
        for (AuditChainRepository.Checkpoint checkpoint : checkpoints) {
            signedThrough.merge(checkpoint.workspaceId(), checkpoint.chainOrder(), Math::max);
        }
        return lastLines.values().stream()
                .filter(line -> signedThrough.getOrDefault(line.workspaceId(), -1L) < line.chainOrder())
                .toList();
    }

    /** What a checkpoint's signature covers. */
    public static String signedText(String workspace, long position, String hash, String at) {
        return workspace + "\n" + position + "\n" + hash + "\n" + at;
    }

    static String sha256(String text) {
        return sha256Bytes(text.getBytes(StandardCharsets.UTF_8));
    }

    static String sha256Bytes(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
