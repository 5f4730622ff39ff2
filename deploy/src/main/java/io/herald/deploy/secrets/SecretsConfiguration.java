package io.herald.deploy.secrets;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.platform.secrets.CredentialCipher;
import io.herald.platform.data.DataDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The keys that encrypt secrets at rest ({@link SecretsProperties}). The embedded run generates
 * one on first start and keeps it in its data folder (it still decrypts after configured keys,
 * so an embedded run can rotate too); a run on an external database must be given its keys, so
 * that every node decrypts what the others stored.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecretsProperties.class)
public class SecretsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecretsConfiguration.class);
    private static final String KEY_FILE = "encryption.key";

    @Bean
    CredentialCipher credentialCipher(SecretsProperties properties, Environment environment) throws IOException {
        List<byte[]> keys = new ArrayList<>(properties.keys().stream().map(SecretsConfiguration::decode).toList());
        if (DataDirectory.embeddedDatabase(environment)) {
            Path keyFile = DataDirectory.resolve(environment).resolve(KEY_FILE);
            if (Files.exists(keyFile)) {
                DataDirectory.restrictExisting(keyFile);
                keys.add(decode(Files.readString(keyFile)));
            } else if (keys.isEmpty()) {
                byte[] key = new byte[32];
                new SecureRandom().nextBytes(key);
                DataDirectory.writeSecret(keyFile, Base64.getEncoder().encodeToString(key));
                log.info("generated the credential encryption key in {}", keyFile);
                keys.add(key);
            }
        } else if (keys.isEmpty()) {
            throw new IllegalStateException("herald.secrets.encryption-keys is required when spring.datasource.url"
                    + " is set (base64 of 32 random bytes, e.g. `openssl rand -base64 32`)");
        }
        CredentialCipher cipher = new CredentialCipher(keys);
        log.info("secrets at rest are encrypted with key {}; keys that decrypt: {}", cipher.primaryKeyId(),
                cipher.keyIds());
        return cipher;
    }

    private static byte[] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("an herald.secrets encryption key is not valid base64");
        }
    }
}
