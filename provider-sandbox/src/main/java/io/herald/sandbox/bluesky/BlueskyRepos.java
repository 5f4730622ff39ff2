package io.herald.sandbox.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.herald.contracts.id.IdempotencyKeys;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * What the simulated PDS holds: accounts (handle, DID, app password), their sessions, their
 * records by collection and key, and the blobs uploaded. A record's CID is a hash of its JSON with
 * sorted keys, so the same record always has the same CID (as DAG-CBOR gives on a real PDS).
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class BlueskyRepos {

    private static final JsonMapper SORTED = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

    /** One account. {@code revoked}: its app password was deleted, and every session made with it. */
    record Account(String handle, String did, String appPassword, boolean revoked) {
    }

    /** One stored record. */
    public record StoredRecord(String uri, String cid, JsonNode value) {
    }

    record Session(String did, String accessJwt, String refreshJwt, boolean accessExpired) {
    }

    private final Map<String, Account> byHandle = new ConcurrentHashMap<>();
    private final Map<String, Account> byDid = new ConcurrentHashMap<>();
    private final Map<String, Session> byAccess = new ConcurrentHashMap<>();
    private final Map<String, Session> byRefresh = new ConcurrentHashMap<>();
    /** Per repository, "collection/rkey" to the record. */
    private final Map<String, Map<String, StoredRecord>> records = new ConcurrentHashMap<>();
    private final Map<String, Long> blobs = new ConcurrentHashMap<>();
    private final List<String> sessionsMade = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Adds (or replaces) an account; returns its DID. */
    public synchronized String register(String handle, String appPassword) {
        Account existing = byHandle.get(handle);
        String did = existing != null ? existing.did() : "did:plc:" + IdempotencyKeys.sha256Hex(handle).substring(0, 24);
        Account account = new Account(handle, did, appPassword, false);
        byHandle.put(handle, account);
        byDid.put(did, account);
        return did;
    }

    Optional<Account> account(String identifier) {
        if (identifier == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(identifier.startsWith("did:") ? byDid.get(identifier) : byHandle.get(identifier));
    }

    synchronized Session newSession(Account account) {
        Session session = new Session(account.did(), "sbx-access-" + UUID.randomUUID(), "sbx-refresh-" + UUID.randomUUID(),
                false);
        byAccess.put(session.accessJwt(), session);
        byRefresh.put(session.refreshJwt(), session);
        sessionsMade.add(account.handle());
        return session;
    }

    Optional<Session> byAccess(String token) {
        return token == null ? Optional.empty() : Optional.ofNullable(byAccess.get(token));
    }

    Optional<Session> byRefresh(String token) {
        return token == null ? Optional.empty() : Optional.ofNullable(byRefresh.get(token));
    }

    /** A new access token for a refresh token; the refresh token keeps working, as on a real PDS for a while. */
    synchronized Session refreshed(Session old) {
        Session session = new Session(old.did(), "sbx-access-" + UUID.randomUUID(), old.refreshJwt(), false);
        byAccess.put(session.accessJwt(), session);
        byRefresh.put(session.refreshJwt(), session);
        return session;
    }

    /** Every access token of the account answers ExpiredToken from now on (their refresh tokens still work). */
    public synchronized void expireAccess(String handle) {
        account(handle).ifPresent(account -> byAccess.replaceAll((token, session) ->
                session.did().equals(account.did()) ? new Session(session.did(), token, session.refreshJwt(), true)
                        : session));
    }

    /** The app password is deleted: new sessions are refused, and the account's tokens with them. */
    public synchronized void revoke(String handle) {
        account(handle).ifPresent(account -> {
            Account revoked = new Account(account.handle(), account.did(), account.appPassword(), true);
            byHandle.put(account.handle(), revoked);
            byDid.put(account.did(), revoked);
            byAccess.values().removeIf(session -> session.did().equals(account.did()));
            byRefresh.values().removeIf(session -> session.did().equals(account.did()));
        });
    }

    /** How many sessions were made for the account with its app password. */
    public long sessionsMade(String handle) {
        return sessionsMade.stream().filter(handle::equals).count();
    }

    Optional<StoredRecord> record(String did, String collection, String rkey) {
        return Optional.ofNullable(records.getOrDefault(did, Map.of()).get(collection + "/" + rkey));
    }

    /** Writes a record where none is, else says what is there (the caller compares CIDs). */
    synchronized StoredRecord putIfAbsent(String did, String collection, String rkey, JsonNode value) {
        Map<String, StoredRecord> repo = records.computeIfAbsent(did, d -> new ConcurrentHashMap<>());
        return repo.computeIfAbsent(collection + "/" + rkey,
                k -> new StoredRecord("at://" + did + "/" + collection + "/" + rkey, cid(value), value));
    }

    synchronized boolean delete(String did, String collection, String rkey) {
        return records.getOrDefault(did, Map.of()).remove(collection + "/" + rkey) != null;
    }

    /** The records of a repository, by key order. */
    public List<StoredRecord> records(String handle) {
        return account(handle).map(account -> {
            List<StoredRecord> all = new ArrayList<>(records.getOrDefault(account.did(), Map.of()).values());
            all.sort(java.util.Comparator.comparing(StoredRecord::uri));
            return all;
        }).orElse(List.of());
    }

    String blob(byte[] bytes) {
        String cid;
        try {
            cid = "bafkrei" + HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes))
                    .substring(0, 52);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        blobs.put(cid, (long) bytes.length);
        return cid;
    }

    Optional<Long> blobSize(String cid) {
        return Optional.ofNullable(blobs.get(cid));
    }

    static String cid(JsonNode value) {
        try {
            Object sorted = SORTED.treeToValue(value, Object.class);
            return "bafyrei" + IdempotencyKeys.sha256Hex(SORTED.writeValueAsString(sorted)).substring(0, 52);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
