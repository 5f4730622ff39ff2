package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.query.audit.AuditKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.env.MockEnvironment;

/**
 * The audit signing key is required on an external database, as the credential keys are; the
 * embedded run generates one into its data folder and keeps using it.
 */
class AuditSigningConfigurationTest {

    private static final String KEY = "YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=";

    @TempDir
    Path folder;

    private static AuditSigningProperties properties(String key, Path file) {
        return new AuditSigningProperties(key, file, Duration.ofMinutes(1), Duration.ofMinutes(1));
    }

    @Test
    void anExternalDatabaseWithoutAKeyStopsTheStartNamingTheProperty() {
        MockEnvironment external = new MockEnvironment().withProperty("spring.datasource.url", "jdbc:postgresql://db/herald")
                .withProperty("herald.data-dir", folder.toString());

        assertThatThrownBy(() -> new AuditSigningConfiguration().auditKeys(properties(null, null), external))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("herald.audit.signing-key (or herald.audit.signing-key-file) is required");
        assertThatThrownBy(() -> new AuditSigningConfiguration().auditKeys(properties(" ", null), external))
                .isInstanceOf(IllegalStateException.class);
        assertThat(folder.resolve("audit-signing.key")).as("no key is generated for an external database").doesNotExist();
    }

    @Test
    void anExternalDatabaseSignsWithTheConfiguredKeyOrKeyFile() throws Exception {
        MockEnvironment external = new MockEnvironment().withProperty("spring.datasource.url", "jdbc:postgresql://db/herald");
        AuditKeys configured = new AuditSigningConfiguration().auditKeys(properties(KEY, null), external);
        Path file = Files.writeString(folder.resolve("signing.key"), KEY + "\n");
        AuditKeys fromFile = new AuditSigningConfiguration().auditKeys(properties(null, file), external);

        assertThat(configured.signer()).isPresent();
        assertThat(fromFile.signer().orElseThrow().keyId()).isEqualTo(configured.signer().orElseThrow().keyId());
    }

    @Test
    void theEmbeddedRunGeneratesAKeyInItsDataFolderAndKeepsIt() throws Exception {
        MockEnvironment embedded = new MockEnvironment().withProperty("herald.data-dir", folder.toString());

        String first = new AuditSigningConfiguration().auditKeys(properties(null, null), embedded).signer().orElseThrow()
                .keyId();
        assertThat(folder.resolve("audit-signing.key")).exists();
        String again = new AuditSigningConfiguration().auditKeys(properties(null, null), embedded).signer().orElseThrow()
                .keyId();
        assertThat(again).isEqualTo(first);
    }
}
