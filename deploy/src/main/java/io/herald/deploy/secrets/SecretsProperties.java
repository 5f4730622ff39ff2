package io.herald.deploy.secrets;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.secrets.*}: the keys that encrypt secrets at rest (channel credentials, webhook
 * and signing secrets), each the base64 of 32 random bytes. {@code encryption-keys} (env
 * {@code HERALD_SECRETS_ENCRYPTIONKEYS}, comma-separated) lists them newest first: the first
 * encrypts, every one decrypts. {@code encryption-key} is the single key of earlier versions; it
 * still works, and when both are set it decrypts after the listed ones.
 */
@ConfigurationProperties("herald.secrets")
public record SecretsProperties(String encryptionKey, @DefaultValue List<String> encryptionKeys) {

    /** The configured keys in order, the single earlier key last; empty when none is configured. */
    List<String> keys() {
        List<String> listed = encryptionKeys.stream().filter(k -> k != null && !k.isBlank()).map(String::trim).toList();
        if (encryptionKey == null || encryptionKey.isBlank() || listed.contains(encryptionKey.trim())) {
            return listed;
        }
        return java.util.stream.Stream.concat(listed.stream(), java.util.stream.Stream.of(encryptionKey.trim()))
                .toList();
    }

    /** Never a key itself: a properties bean may be printed. */
    @Override
    public String toString() {
        return "SecretsProperties[encryptionKey=" + (encryptionKey == null || encryptionKey.isBlank() ? "unset" : "set")
                + ", encryptionKeys=" + encryptionKeys.size() + " set]";
    }
}
