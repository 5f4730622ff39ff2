package io.herald.deploy.secrets;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.platform.secrets.CredentialCipher;
import io.herald.platform.data.DataDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The key that encrypts channel credentials at rest: {@code herald.secrets.encryption-key}
 * (base64 of 32 bytes, env {@code HERALD_SECRETS_ENCRYPTION_KEY}). The embedded run generates one
 * on first start and keeps it in its data folder; a run on an external database must be given
 * the key, so that every node decrypts what the others stored.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecretsProperties.class)
public class SecretsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecretsConfiguration.class);
    private static final String KEY_FILE = "encryption.key";

    @Bean
    CredentialCipher credentialCipher(SecretsProperties properties, Environment environment) throws IOException {
        String configured = properties.encryptionKey();
        if (configured != null && !configured.isBlank()) {
            return new CredentialCipher(decode(configured));
        }
        if (!DataDirectory.embeddedDatabase(environment)) {
            throw new IllegalStateException("herald.secrets.encryption-key is required when spring.datasource.url"
                    + " is set (base64 of 32 random bytes, e.g. `openssl rand -base64 32`)");
        }
        Path keyFile = DataDirectory.resolve(environment).resolve(KEY_FILE);
        if (!Files.exists(keyFile)) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            DataDirectory.writeSecret(keyFile, Base64.getEncoder().encodeToString(key));
            log.info("generated the credential encryption key in {}", keyFile);
        } else {
            DataDirectory.restrictExisting(keyFile);
        }
        return new CredentialCipher(decode(Files.readString(keyFile)));
    }

    private static byte[] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("herald.secrets.encryption-key is not valid base64");
        }
    }
}
