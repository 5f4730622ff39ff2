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
 * to a checkpoint is found and named; and that every chain in the file ends at a signed
 * checkpoint, so that nothing was cut off after the last one (docs/audit.md). A chain starts at
 * its origin, or, in an export that began after a position ({@code partial}), at the signed
 * checkpoint the export puts before its first line.
 */
public final class ExportVerifier {

    /**
     * The verdict.
     *
     * @param badLine  the 1-based number of the first line that does not hold, 0 when all hold
     * @param problem  what is wrong with it, null when all hold
     * @param notes    what holds but proves less than it might (lines after a chain's last checkpoint,
     *                 when those are allowed)
     */
    public record Result(long lines, long events, long checkpoints, long badLine, String problem, List<String> notes) {

        public boolean verified() {
            return badLine == 0;
        }
    }

    private static final class Chain {
        String lastHash;
        long lines;
        long coveredLines;
        boolean signed;
        /** The file's line number of each of the chain's lines, in chain order. */
        final List<Long> numbers = new ArrayList<>();
        final Map<Long, String> hashAt = new HashMap<>();
        final Map<Long, Long> countAt = new HashMap<>();
    }

    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, String> publicKeys;
    private final boolean partial;
    private final boolean unsignedTail;

    /**
     * @param publicKeys keyId → standard base64 of the raw Ed25519 public key
     * @param partial    the export began after a position: a chain may start at a signed checkpoint
     *                   before its first line instead of at its origin
     */
    public ExportVerifier(Map<String, String> publicKeys, boolean partial) {
        this(publicKeys, partial, false);
    }

    /**
     * @param unsignedTail lines after a chain's last checkpoint are noted instead of refused: they
     *                     are chained, but nothing proves that no line after them was cut off
     */
    public ExportVerifier(Map<String, String> publicKeys, boolean partial, boolean unsignedTail) {
        this.publicKeys = Map.copyOf(publicKeys);
        this.partial = partial;
        this.unsignedTail = unsignedTail;
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
                if (!AuditChain.ORIGIN.equals(prev)) {
                    return bad(number, events, checkpoints, "line " + number + ": the first line of workspace '"
                            + workspace + "' does not start its chain and follows no signed checkpoint of it"
                            + " (lines before it are missing)");
                }
            } else if (!chain.lastHash.equals(prev)) {
                return bad(number, events, checkpoints, "line " + number + ": its prevHash is not the hash of the"
                        + " line before it in workspace '" + workspace + "' (a line was removed or moved)");
            }
            chain.lastHash = hash;
            chain.lines++;
            chain.numbers.add(number);
            long position = line.path("position").asLong(-1);
            chain.hashAt.put(position, hash);
            chain.countAt.put(position, chain.lines);
        }
        if (checkpoints == 0) {
            return bad(number, events, checkpoints, "the export ends without a checkpoint: nothing in it is signed");
        }
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, Chain> entry : chains.entrySet()) {
            Chain chain = entry.getValue();
            if (chain.lines <= chain.coveredLines) {
                continue;
            }
            long first = chain.numbers.get((int) chain.coveredLines);
            long open = chain.lines - chain.coveredLines;
            String problem = "the chain of workspace '" + entry.getKey() + "': " + open + " lines from line " + first
                    + " on are covered by no signed checkpoint in the file"
                    + (chain.signed ? " (after its last checkpoint)" : "")
                    + ": lines after them may have been cut off";
            if (!unsignedTail) {
                return bad(first, events, checkpoints, "line " + first + ": " + problem
                        + " (a checkpoint line was removed, or the file was exported by an earlier Herald before"
                        + " their checkpoint was signed: export it again, as an export now ends signed)");
            }
            notes.add(problem);
        }
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
            if (!partial) {
                return "the checkpoint of workspace '" + workspace + "' comes before every line of that workspace"
                        + " (an export that began after a position starts at such a checkpoint: add --partial)";
            }
            // the chain's head where the export begins: its first line must continue this signed hash
            chain = new Chain();
            chain.lastHash = hash;
            chain.signed = true;
            chain.hashAt.put(position, hash);
            chain.countAt.put(position, 0L);
            chains.put(workspace, chain);
            return null;
        }
        String lineHash = chain.hashAt.get(position);
        if (lineHash == null) {
            return "no line of workspace '" + workspace + "' has the checkpoint's position " + position
                    + " (lines were removed)";
        }
        if (!lineHash.equals(hash)) {
            return "the line at position " + position + " does not have the hash the checkpoint signed";
        }
        chain.signed = true;
        chain.coveredLines = Math.max(chain.coveredLines, chain.countAt.get(position));
        return null;
    }

    private static Result bad(long line, long events, long checkpoints, String problem) {
        return new Result(line, events, checkpoints, line, problem, List.of());
    }
}
