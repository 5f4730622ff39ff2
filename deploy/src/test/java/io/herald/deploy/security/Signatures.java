package io.herald.deploy.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** A client's side of X-Herald-Signature, written from docs/api.md#request-signatures rather than from Herald's filter. */
final class Signatures {

    private Signatures() {
    }

    /** {@code t=<t>,v2=<hex HMAC-SHA256(secret, t \n METHOD \n path and query \n hex SHA-256(body))>}. */
    static String v2Header(String secret, long t, String method, String pathAndQuery, String body) {
        return "t=" + t + ",v2=" + v2(secret, t, method, pathAndQuery, body);
    }

    static String v2(String secret, long t, String method, String pathAndQuery, String body) {
        try {
            String bodyHash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(body.getBytes(StandardCharsets.UTF_8)));
            return hmac(secret, t + "\n" + method + "\n" + pathAndQuery + "\n" + bodyHash);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The earlier form: {@code v1=<hex HMAC-SHA256(secret, t + "." + body)>}. */
    static String v1(String secret, long t, String body) {
        return hmac(secret, t + "." + body);
    }

    private static String hmac(String secret, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
