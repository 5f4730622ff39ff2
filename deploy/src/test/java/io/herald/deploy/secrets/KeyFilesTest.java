package io.herald.deploy.secrets;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.platform.data.DataDirectory;
import io.herald.access.SystemKey;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.env.MockEnvironment;

/** Secrets that Herald keeps in its data folder are its owner's alone, from the moment each file exists. */
class KeyFilesTest {

    @TempDir
    Path tmp;

    @Test
    void aSecretFileIsCreatedOwnerOnlyInAnOwnerOnlyFolderAndNeverOverwritten() throws Exception {
        Path folder = tmp.resolve("new-data");
        Path file = folder.resolve("some.key");

        DataDirectory.writeSecret(file, "secret");

        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(mode(folder)).isEqualTo("rwx------");
        assertThat(Files.readString(file)).isEqualTo("secret");
        assertThatThrownBy(() -> DataDirectory.writeSecret(file, "other")).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(file)).isEqualTo("secret");
    }

    @Test
    void theGeneratedSystemKeyHashAndCredentialKeyAreOwnerOnly() throws Exception {
        Path folder = tmp.resolve("herald-data");
        SystemKey.fromDataDirectory(folder, false);
        new SecretsConfiguration().credentialCipher(new SecretsProperties(null, java.util.List.of()), new MockEnvironment().withProperty("herald.data-dir", folder.toString()));

        assertThat(mode(folder.resolve("system-key.sha256"))).isEqualTo("rw-------");
        assertThat(mode(folder.resolve("encryption.key"))).isEqualTo("rw-------");
        assertThat(mode(folder)).isEqualTo("rwx------");
    }

    @Test
    void keyFilesThatEarlierVersionsLeftReadableAreRestrictedWhenRead() throws Exception {
        Path folder = tmp.resolve("old-data");
        Files.createDirectories(folder);
        Path hash = Files.writeString(folder.resolve("system-key.sha256"), "ab".repeat(32));
        Path key = Files.writeString(folder.resolve("encryption.key"), "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
        Files.setPosixFilePermissions(hash, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-rw-r--"));

        SystemKey.fromDataDirectory(folder, false);
        new SecretsConfiguration().credentialCipher(new SecretsProperties(null, java.util.List.of()), new MockEnvironment().withProperty("herald.data-dir", folder.toString()));

        assertThat(mode(hash)).isEqualTo("rw-------");
        assertThat(mode(key)).isEqualTo("rw-------");
        assertThat(Files.readString(hash)).isEqualTo("ab".repeat(32));
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
