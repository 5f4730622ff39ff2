package io.herald.command.media;

import io.herald.adapters.port.PublicMediaLinks;
import io.herald.command.channel.ConnectProperties;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.platform.secrets.CredentialCipher;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.stereotype.Component;

/**
 * The addresses providers fetch images at: {@code {herald.public-base-url}/media/public/{token}}.
 * The token is {@code <payload>.<signature>}, both base64url: the payload names the workspace, the
 * image, the publication, when the token expires ({@code herald.media.public-link-ttl} after it was
 * made) and the rendition (as uploaded, or JPEG); the signature is HMAC-SHA256 over the payload
 * with a key derived from the credentials' encrypting key ({@code herald.secrets.encryption-key}),
 * so every node makes and accepts the same tokens and no key is kept in the database. A token
 * whose signature does not match, that expired or that does not parse names nothing.
 */
@Component
public class SignedMediaLinks implements PublicMediaLinks {

    /** The path under Herald's public address; {@link PublicMediaController} serves it. */
    static final String PATH = "/media/public/";
    private static final String VERSION = "1";
    private static final int MAX_TOKEN_CHARS = 1_024;
    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder URL_DECODER = Base64.getUrlDecoder();
    // the API's id rule (PublicationRequest.SAFE_ID)
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,254}");

    /** What an address serves: the image as uploaded, or a JPEG made of it. */
    public enum Rendition {
        AS_UPLOADED("o"), JPEG("j");

        private final String tag;

        Rendition(String tag) {
            this.tag = tag;
        }

        static Optional<Rendition> of(String tag) {
            for (Rendition rendition : values()) {
                if (rendition.tag.equals(tag)) {
                    return Optional.of(rendition);
                }
            }
            return Optional.empty();
        }
    }

    /** What a valid token names. */
    public record Link(WorkspaceId workspace, MediaId media, PublicationId publication, Instant expiresAt,
                       Rendition rendition) {
    }

    private final ConnectProperties connect;
    private final byte[] key;
    private final Clock clock;
    private final Duration ttl;

    public SignedMediaLinks(ConnectProperties connect, CredentialCipher cipher, Clock clock,
                            MediaProperties properties) {
        this.connect = connect;
        this.key = cipher.derivedKey("public media link");
        this.clock = clock;
        this.ttl = properties.publicLinkTtl();
    }

    @Override
    public boolean available() {
        return connect.hasPublicBaseUrl();
    }

    @Override
    public URI linkFor(WorkspaceId workspace, MediaId media, PublicationId publication) {
        return link(workspace, media, publication, Rendition.AS_UPLOADED);
    }

    @Override
    public URI jpegLinkFor(WorkspaceId workspace, MediaId media, PublicationId publication) {
        return link(workspace, media, publication, Rendition.JPEG);
    }

    private URI link(WorkspaceId workspace, MediaId media, PublicationId publication, Rendition rendition) {
        if (!available()) {
            throw new IllegalStateException("herald.public-base-url is not set: providers cannot fetch images");
        }
        return URI.create(connect.publicBaseUrl() + PATH + token(workspace, media, publication, rendition));
    }

    /** A token for the image, valid for the configured time from now. */
    String token(WorkspaceId workspace, MediaId media, PublicationId publication, Rendition rendition) {
        long expires = clock.instant().plus(ttl).getEpochSecond();
        String payload = String.join("\n", VERSION, workspace.value(), media.value(), publication.value(),
                Long.toString(expires), rendition.tag);
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        return URL.encodeToString(bytes) + "." + URL.encodeToString(sign(bytes));
    }

    /** What the token names, when it is one of Herald's, unchanged and not expired. */
    public Optional<Link> read(String token) {
        if (token == null || token.length() > MAX_TOKEN_CHARS) {
            return Optional.empty();
        }
        int dot = token.indexOf('.');
        if (dot < 1 || dot != token.lastIndexOf('.')) {
            return Optional.empty();
        }
        byte[] payload;
        byte[] signature;
        try {
            payload = URL_DECODER.decode(token.substring(0, dot));
            signature = URL_DECODER.decode(token.substring(dot + 1));
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        if (!MessageDigest.isEqual(sign(payload), signature)) {
            return Optional.empty();
        }
        String[] parts = new String(payload, StandardCharsets.UTF_8).split("\n", -1);
        if (parts.length != 6 || !VERSION.equals(parts[0]) || !SAFE_ID.matcher(parts[1]).matches()
                || !MediaId.isMediaId(parts[2]) || !SAFE_ID.matcher(parts[3]).matches()) {
            return Optional.empty();
        }
        Instant expiresAt;
        try {
            expiresAt = Instant.ofEpochSecond(Long.parseLong(parts[4]));
        } catch (NumberFormatException | java.time.DateTimeException e) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(expiresAt)) {
            return Optional.empty();
        }
        return Rendition.of(parts[5]).map(rendition -> new Link(new WorkspaceId(parts[1]), MediaId.of(parts[2]),
                PublicationId.of(parts[3]), expiresAt, rendition));
    }

    private byte[] sign(byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is missing", e);
        }
    }

    @Override
    public String toString() {
        // never the key
        return "SignedMediaLinks[available=" + available() + ", ttl=" + ttl + "]";
    }
}
