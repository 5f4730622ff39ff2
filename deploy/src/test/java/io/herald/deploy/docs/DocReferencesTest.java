package io.herald.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every reference in the repository's text files (Java, Markdown, YAML, JavaScript, PHP, shell) to a
 * Markdown file, and every {@code docs/} path, names a file that is in the repository; a reference
 * with a {@code #section} names a heading of that file. A reference is looked up beside the file
 * that makes it, then from the repository's root; a bare file name may also be any file of that name.
 */
class DocReferencesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> SCANNED = Set.of("java", "md", "yml", "yaml", "js", "mjs", "php", "sh", "sql", "txt",
            "html", "properties", "xml");
    private static final Set<String> SKIPPED_FOLDERS = Set.of(".git", "target", "node_modules", "herald-data",
            ".idea", ".vscode");
    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s)\"'>`]+");
    private static final Pattern MARKDOWN = Pattern.compile(
            "(?<![\\w/.-])((?:\\.{1,2}/)*[\\w.-]+(?:/[\\w.-]+)*\\.md)(?![\\w-])(#[\\w-]+)?");
    private static final Pattern DOCS_PATH = Pattern.compile("(?<![\\w/.-])(docs/[\\w./-]*)(#[\\w-]+)?");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyReferencedMarkdownFileAndDocsPathExists() throws IOException {
        List<Path> files = textFiles();
        Map<String, List<Path>> byName = new HashMap<>();
        try (Stream<Path> all = walk()) {
            all.forEach(p -> byName.computeIfAbsent(p.getFileName().toString(), n -> new ArrayList<>()).add(p));
        }
        Set<String> broken = new TreeSet<>();
        int checked = 0;
        for (Path file : files) {
            String text = URL.matcher(Files.readString(file, StandardCharsets.UTF_8)).replaceAll(" ");
            for (Pattern pattern : List.of(MARKDOWN, DOCS_PATH)) {
                Matcher m = pattern.matcher(text);
                while (m.find()) {
                    String reference = m.group(1).replaceAll("[.]+$", "");
                    String anchor = m.group(2) == null ? null : m.group(2).substring(1);
                    checked++;
                    String problem = check(file, reference, anchor, byName);
                    if (problem != null) {
                        broken.add(ROOT.relativize(file) + ": " + reference + (anchor == null ? "" : "#" + anchor)
                                + " (" + problem + ")");
                    }
                }
            }
        }
        assertThat(checked).as("references found").isGreaterThan(50);
        assertThat(broken).as("references to files or sections that are not in the repository").isEmpty();
    }

    @Test
    void headingsBecomeTheAnchorsGitHubGivesThem() {
        assertThat(slug("An entry's post over time")).isEqualTo("an-entrys-post-over-time");
        assertThat(slug("Reconciliation (read-back)")).isEqualTo("reconciliation-read-back");
        assertThat(slug("Image, compose and Kubernetes")).isEqualTo("image-compose-and-kubernetes");
        assertThat(slug("`herald-client`: the Java client")).isEqualTo("herald-client-the-java-client");
    }

    private String check(Path file, String reference, String anchor, Map<String, List<Path>> byName) {
        List<Path> candidates = new ArrayList<>();
        candidates.add(file.getParent().resolve(reference).normalize());
        candidates.add(ROOT.resolve(reference).normalize());
        if (!reference.contains("/")) {
            candidates.addAll(byName.getOrDefault(reference, List.of()));
        }
        List<Path> found = candidates.stream().filter(p -> p.startsWith(ROOT) && Files.exists(p)).toList();
        if (found.isEmpty()) {
            return "no such file";
        }
        if (anchor == null) {
            return null;
        }
        boolean named = found.stream().filter(p -> p.toString().endsWith(".md"))
                .anyMatch(p -> anchorsOf(p).contains(anchor.toLowerCase(Locale.ROOT)));
        return named ? null : "no such section";
    }

    private Set<String> anchorsOf(Path markdown) {
        return anchors.computeIfAbsent(markdown, p -> {
            Set<String> out = new HashSet<>();
            try {
                for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                    Matcher heading = HEADING.matcher(line);
                    if (heading.matches()) {
                        out.add(slug(heading.group(1)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out;
        });
    }

    /** The anchor GitHub makes of a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}_ -]", "")
                .replace(' ', '-');
    }

    private static List<Path> textFiles() throws IOException {
        try (Stream<Path> all = walk()) {
            return all.filter(p -> {
                String name = p.getFileName().toString();
                int dot = name.lastIndexOf('.');
                return dot > 0 && SCANNED.contains(name.substring(dot + 1));
            }).sorted().toList();
        }
    }

    /** The repository's regular files, without build output, dependencies and version control. */
    private static Stream<Path> walk() throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                return SKIPPED_FOLDERS.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile()) {
                    out.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return out.stream();
    }
}
