package io.herald.deploy.secrets;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code herald.secrets.*}.
 *
 * @param encryptionKey base64 of the 32-byte key that encrypts channel credentials at rest; required with an external database
 */
@ConfigurationProperties("herald.secrets")
public record SecretsProperties(
        String encryptionKey) {

    /** Never the key itself: a properties bean may be printed. */
    @Override
    public String toString() {
        return "SecretsProperties[encryptionKey=" + (encryptionKey == null || encryptionKey.isBlank() ? "unset" : "set") + "]";
    }
}
