package io.herald.deploy.ops;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The deployment files of the repository, read as an operator's tools would read them. */
final class DeploymentFiles {

    /** Tests run in the module folder; the compose file and the Dockerfile are at the repository's top. */
    static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    static final Path K8S = REPOSITORY.resolve("deploy/k8s");

    private DeploymentFiles() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(Path file) {
        try {
            return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Follows a path of map keys and list indexes, e.g. {@code at(doc, "spec", "containers", 0)}. */
    @SuppressWarnings("unchecked")
    static <T> T at(Object node, Object... path) {
        Object current = node;
        for (Object step : path) {
            if (current == null) {
                return null;
            }
            current = step instanceof Integer i ? ((List<Object>) current).get(i) : ((Map<String, Object>) current).get(step);
        }
        return (T) current;
    }

    /**
     * Every configuration key Herald and Spring Boot declare (the configuration metadata of every
     * jar on the classpath), relaxed as environment variables are bound: lower case, without
     * dots, dashes and underscores.
     */
    static Set<String> relaxedConfigurationKeys() {
        Set<String> keys = new HashSet<>();
        ObjectMapper json = new ObjectMapper();
        for (String name : List.of("META-INF/spring-configuration-metadata.json",
                "META-INF/additional-spring-configuration-metadata.json")) {
            try {
                for (URL url : Collections.list(DeploymentFiles.class.getClassLoader().getResources(name))) {
                    try (InputStream in = url.openStream()) {
                        JsonNode metadata = json.readTree(in);
                        metadata.path("properties").forEach(p -> keys.add(relaxed(p.path("name").asText())));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return keys;
    }

    static String relaxed(String keyOrVariable) {
        return keyOrVariable.toLowerCase(java.util.Locale.ROOT).replaceAll("[._-]", "");
    }

    /** Variables that name Spring or Herald configuration; others (PORT, JAVA_TOOL_OPTIONS) are the image's. */
    static boolean configurationVariable(String name) {
        return name.startsWith("HERALD_") || name.startsWith("SPRING_");
    }
}
