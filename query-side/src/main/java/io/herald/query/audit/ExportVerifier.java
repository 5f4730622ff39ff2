package io.herald.query.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks an audit export without Herald: every line's hash against its content, every line's
 * prevHash against the line before it in its workspace's chain, and every checkpoint's signature
 * and hash against the line at its position, so that a line removed, changed or moved anywhere up
 * to a checkpoint is found and named (docs/audit.md).
 */
public final class ExportVerifier {

    /**
     * The verdict.
     *
     * @param badLine  the 1-based number of the first line that does not hold, 0 when all hold
     * @param problem  what is wrong with it, null when all hold
     * @param notes    what holds but proves less than it might (lines after the last checkpoint)
     */
    public record Result(long lines, long events, long checkpoints, long badLine, String problem, List<String> notes) {

        public boolean verified() {
            return badLine == 0;
        }
    }

    private static final class Chain {
        String lastHash;
        long firstPosition = -1;
        long lines;
        long coveredLines;
        boolean signed;
        final Map<Long, String> hashAt = new HashMap<>();
        final Map<Long, Long> countAt = new HashMap<>();
    }

    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, String> publicKeys;
    private final boolean partial;

    /**
     * @param publicKeys keyId → standard base64 of the raw Ed25519 public key
     * @param partial    the export began after a position: a chain's first line may continue a chain
     *                   the file does not hold
     */
    public ExportVerifier(Map<String, String> publicKeys, boolean partial) {
        this.publicKeys = Map.copyOf(publicKeys);
        this.partial = partial;
    }

    /** The keys of a keys document ({@code GET /api/v1/audit/keys}) or of one base64 public key. */
    public static Map<String, String> keysOf(String text) {
        String trimmed = text.trim();
        Map<String, String> keys = new LinkedHashMap<>();
        if (trimmed.startsWith("{")) {
            try {
                for (JsonNode key : new ObjectMapper().readTree(trimmed).path("keys")) {
                    keys.put(key.path("keyId").asText(), key.path("publicKey").asText());
                }
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("the key file is neither a base64 key nor a keys document");
            }
        } else {
            keys.put(AuditSigner.keyIdOf(trimmed), trimmed);
        }
        return keys;
    }

    public Result verify(BufferedReader in) throws IOException {
        Map<String, Chain> chains = new LinkedHashMap<>();
        long number = 0;
        long events = 0;
        long checkpoints = 0;
        String text;
        while ((text = in.readLine()) != null) {
            number++;
            if (text.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = json.readTree(text);
            } catch (JsonProcessingException e) {
                return bad(number, events, checkpoints, "line " + number + " is not JSON");
            }
            if (!(node instanceof ObjectNode line)) {
                return bad(number, events, checkpoints, "line " + number + " is not a JSON object");
            }
            if (line.has("checkpoint")) {
                checkpoints++;
                String problem = checkpoint(line.get("checkpoint"), chains);
                if (problem != null) {
                    return bad(number, events, checkpoints, "line " + number + ": " + problem);
                }
                continue;
            }
            events++;
            String workspace = line.path(AuditChain.WORKSPACE).asText(null);
            String prev = line.path(AuditChain.PREV_HASH).asText(null);
            String hash = line.path(AuditChain.HASH).asText(null);
            if (workspace == null || prev == null || hash == null) {
                return bad(number, events, checkpoints, "line " + number + " lacks workspaceId, prevHash or hash");
            }
            if (!AuditChain.hash(prev, line).equals(hash)) {
                return bad(number, events, checkpoints, "line " + number
                        + ": its hash does not match its content (the line was changed)");
            }
            Chain chain = chains.computeIfAbsent(workspace, w -> new Chain());
            if (chain.lastHash == null) {
                if (!partial && !AuditChain.ORIGIN.equals(prev)) {
                    return bad(number, events, checkpoints, "line " + number + ": the first line of workspace '"
                            + workspace + "' does not start its chain (lines before it are missing;"
                            + " an export that began after a position needs --partial)");
                }
            } else if (!chain.lastHash.equals(prev)) {
                return bad(number, events, checkpoints, "line " + number + ": its prevHash is not the hash of the"
                        + " line before it in workspace '" + workspace + "' (a line was removed or moved)");
            }
            chain.lastHash = hash;
            chain.lines++;
            long position = line.path("position").asLong(-1);
            if (chain.firstPosition < 0) {
                chain.firstPosition = position;
            }
            chain.hashAt.put(position, hash);
            chain.countAt.put(position, chain.lines);
        }
        if (checkpoints == 0) {
            return bad(number, events, checkpoints, "the export ends without a checkpoint: nothing in it is signed");
        }
        List<String> notes = new ArrayList<>();
        chains.forEach((workspace, chain) -> {
            if (!chain.signed) {
                notes.add("workspace '" + workspace + "': " + chain.lines + " lines, none covered by a checkpoint");
            } else if (chain.lines > chain.coveredLines) {
                notes.add("workspace '" + workspace + "': " + (chain.lines - chain.coveredLines)
                        + " lines after its checkpoint are chained but not yet signed");
            }
        });
        return new Result(number, events, checkpoints, 0, null, notes);
    }

    private String checkpoint(JsonNode checkpoint, Map<String, Chain> chains) {
        String workspace = checkpoint.path("workspaceId").asText(null);
        long position = checkpoint.path("position").asLong(-1);
        String hash = checkpoint.path("hash").asText(null);
        String at = checkpoint.path("at").asText(null);
        String keyId = checkpoint.path("keyId").asText(null);
        String signature = checkpoint.path("signature").asText(null);
        if (workspace == null || hash == null || at == null || keyId == null || signature == null || position < 0) {
            return "the checkpoint lacks a field";
        }
        String key = publicKeys.get(keyId);
        if (key == null) {
            return "the checkpoint is signed by key " + keyId + ", which is not among the public keys given";
        }
        if (!AuditSigner.verify(key, AuditChain.signedText(workspace, position, hash, at), signature)) {
            return "the checkpoint's signature does not hold (the checkpoint was changed)";
        }
        Chain chain = chains.get(workspace);
        if (chain == null) {
            return "the checkpoint of workspace '" + workspace + "' follows no line of that workspace";
        }
        String lineHash = chain.hashAt.get(position);
        if (lineHash == null && partial && position < chain.firstPosition) {
            // it signs a line before this export began: it proves nothing about this part
            return null;
        }
        if (lineHash == null) {
            return "no line of workspace '" + workspace + "' has the checkpoint's position " + position
                    + " (lines were removed)";
        }
        if (!lineHash.equals(hash)) {
            return "the line at position " + position + " does not have the hash the checkpoint signed";
        }
        chain.signed = true;
        chain.coveredLines = chain.countAt.get(position);
        return null;
    }

    private static Result bad(long line, long events, long checkpoints, String problem) {
        return new Result(line, events, checkpoints, line, problem, List.of());
    }
}
