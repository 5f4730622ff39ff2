package io.herald.command.channel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.port.OAuthFlow;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.secrets.CredentialCipher;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The {@code state} of connects in progress. A state is {@code <id>.<signature>}: the id names a
 * stored row, the signature (HMAC-SHA256 under a key derived from the credential key, outside the
 * database) binds it to the workspace, channel, channel type and admin key that started it, so a
 * row alone does not make a valid state. A state is used once: the callback moves it from
 * {@code STARTED} on, the choice from {@code CHOOSING} on, each in one conditional update; an
 * expired, used, unknown or foreign one is refused with {@code oauth_state_invalid}. The PKCE
 * verifier and the choices (which hold tokens) are stored encrypted.
 */
@Repository
public class OAuthStates {

    enum Stage { STARTED, EXCHANGING, CHOOSING, DONE }

    /** A connect in progress, as stored. */
    record Pending(String id, String workspace, String channel, String type, String actor, String codeVerifier,
                   ObjectNode carried, Instant expiresAt) {

        @Override
        public String toString() {
            return "Pending[" + id + ", " + workspace + "/" + channel + ", verifier redacted]";
        }
    }

    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

    private final JdbcTemplate jdbc;
    private final CredentialCipher cipher;
    private final ObjectMapper json;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public OAuthStates(JdbcTemplate jdbc, CredentialCipher cipher, ObjectMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.cipher = cipher;
        this.json = json;
        this.clock = clock;
    }

    /** A fresh PKCE verifier (RFC 7636: 43 characters of base64url). */
    String newVerifier() {
        return URL.encodeToString(bytes(32));
    }

    /** The S256 challenge of a verifier. */
    static String challenge(String verifier) {
        try {
            return URL.encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /** A new state's id and its signed form, not yet stored. */
    record Issued(String id, String state) {
    }

    Issued issue(String workspace, String channel, String type, String actor) {
        String id = URL.encodeToString(bytes(18));
        return new Issued(id, id + "." + sign(id, workspace, channel, type, actor));
    }

    void store(Issued issued, String workspace, String channel, String type, String actor, String verifier,
               ObjectNode carried, Duration ttl) {
        Instant now = clock.instant();
        jdbc.update("DELETE FROM oauth_connect_state WHERE expires_at < ?", Timestamp.from(now.minus(Duration.ofDays(1))));
        jdbc.update("""
                        INSERT INTO oauth_connect_state (id, workspace_id, channel_id, channel_type, actor,
                            verifier_ciphertext, carried, stage, created_at, expires_at)
                        VALUES (?, ?, ?, ?, ?, ?, CAST(? AS JSONB), ?, ?, ?)""",
                issued.id(), workspace, channel, type, actor,
                cipher.encrypt(verifier.getBytes(StandardCharsets.US_ASCII), associatedData(issued.id())),
                carried.toString(), Stage.STARTED.name(), Timestamp.from(now), Timestamp.from(now.plus(ttl)));
    }

    /**
     * The callback's use of a state: valid, of this channel type, unexpired and not used before; it
     * is used from here on.
     */
    Pending takeForExchange(String state, String type) {
        Pending pending = verified(state).filter(p -> p.type().equals(type))
                .orElseThrow(OAuthStates::invalid);
        move(pending.id(), Stage.STARTED, Stage.EXCHANGING);
        return pending;
    }

    /** After the exchange: the connections to choose among, kept encrypted with the state. */
    void awaitChoice(String id, List<OAuthFlow.Choice> choices) {
        byte[] plain;
        try {
            plain = json.writeValueAsBytes(choices);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the choices could not be written", e);
        }
        jdbc.update("UPDATE oauth_connect_state SET stage = ?, choices_ciphertext = ? WHERE id = ? AND stage = ?",
                Stage.CHOOSING.name(), cipher.encrypt(plain, associatedData(id) + "|choices"), id,
                Stage.EXCHANGING.name());
    }

    void done(String id) {
        jdbc.update("UPDATE oauth_connect_state SET stage = ?, choices_ciphertext = NULL WHERE id = ?",
                Stage.DONE.name(), id);
    }

    /**
     * The choice's use of a state: valid, started by this admin key for this workspace and channel,
     * waiting for a choice and unexpired. Returns the chosen connection, and the state is used from
     * here on; an id that is not among the choices is refused without using it.
     */
    OAuthFlow.Choice takeChoice(String state, String workspace, String channel, String actor, String choiceId) {
        Pending pending = verified(state)
                .filter(p -> p.workspace().equals(workspace) && p.channel().equals(channel) && p.actor().equals(actor))
                .orElseThrow(OAuthStates::invalid);
        byte[] sealed = jdbc.query("SELECT choices_ciphertext FROM oauth_connect_state WHERE id = ? AND stage = ?",
                (rs, n) -> rs.getBytes(1), pending.id(), Stage.CHOOSING.name()).stream().findFirst()
                .orElseThrow(OAuthStates::invalid);
        List<OAuthFlow.Choice> choices;
        try {
            choices = json.readValue(cipher.decrypt(sealed, associatedData(pending.id()) + "|choices"),
                    new TypeReference<List<OAuthFlow.Choice>>() { });
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the stored choices could not be read", e);
        }
        OAuthFlow.Choice chosen = choices.stream().filter(c -> c.id().equals(choiceId)).findFirst()
                .orElseThrow(() -> HeraldRejection.invalid(List.of(new FieldViolation("id",
                        "must be the id of one of the choices the callback listed"))));
        move(pending.id(), Stage.CHOOSING, Stage.DONE);
        jdbc.update("UPDATE oauth_connect_state SET choices_ciphertext = NULL WHERE id = ?", pending.id());
        return chosen;
    }

    /** The connect a state belongs to, once its signature holds (for its workspace, channel and admin). */
    Optional<Pending> find(String state) {
        return verified(state);
    }

    /** The row a well-formed, correctly signed state names, if any. */
    private Optional<Pending> verified(String state) {
        if (state == null || state.length() > 200) {
            return Optional.empty();
        }
        int dot = state.indexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        String id = state.substring(0, dot);
        Optional<Pending> row = jdbc.query("SELECT * FROM oauth_connect_state WHERE id = ?", this::pending, id)
                .stream().findFirst();
        return row.filter(p -> MessageDigest.isEqual(
                sign(p.id(), p.workspace(), p.channel(), p.type(), p.actor()).getBytes(StandardCharsets.US_ASCII),
                state.substring(dot + 1).getBytes(StandardCharsets.US_ASCII)));
    }

    private void move(String id, Stage from, Stage to) {
        int moved = jdbc.update("UPDATE oauth_connect_state SET stage = ? WHERE id = ? AND stage = ? AND expires_at > ?",
                to.name(), id, from.name(), Timestamp.from(clock.instant()));
        if (moved != 1) {
            throw invalid();
        }
    }

    private Pending pending(ResultSet rs, int n) throws SQLException {
        String id = rs.getString("id");
        try {
            return new Pending(id, rs.getString("workspace_id"), rs.getString("channel_id"),
                    rs.getString("channel_type"), rs.getString("actor"),
                    new String(cipher.decrypt(rs.getBytes("verifier_ciphertext"), associatedData(id)),
                            StandardCharsets.US_ASCII),
                    (ObjectNode) json.readTree(rs.getString("carried")), rs.getTimestamp("expires_at").toInstant());
        } catch (JsonProcessingException e) {
            throw new SQLException("unreadable connect state " + id, e);
        }
    }

    static HeraldRejection invalid() {
        return new HeraldRejection(ErrorCode.OAUTH_STATE_INVALID,
                "the state is unknown, already used, expired or not this workspace's: start the connect again");
    }

    private String sign(String id, String workspace, String channel, String type, String actor) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(cipher.derivedKey("oauth connect state"), "HmacSHA256"));
            String bound = String.join("\n", id, workspace, channel, type, actor);
            return URL.encodeToString(mac.doFinal(bound.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is missing", e);
        }
    }

    private static String associatedData(String id) {
        return "oauth-state:" + id;
    }

    private byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }
}
