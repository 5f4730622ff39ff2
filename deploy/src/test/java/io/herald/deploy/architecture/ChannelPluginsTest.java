package io.herald.deploy.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.contracts.channel.ChannelType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A channel is a plug-in: the command side, reconciliation, the query side, access and the platform
 * know channel types only through the registry. They use no class of a provider's package, and
 * their code names no channel type (no {@code switch} over types, no {@code "facebook"} in a
 * condition); comments may, and so may the {@code package} and {@code import} lines (a package of
 * the platform may be named by a word that is also a channel type, {@code threads}; a use of a
 * provider's package is the dependency rule's to find). Nor do the console's scripts, styles and
 * page: it draws the channel types the server lists. Adding a channel is its packages and one
 * registration line.
 */
class ChannelPluginsTest {

    /** The packages of channel-adapters that belong to no provider. */
    private static final Pattern PROVIDER_PACKAGE =
            Pattern.compile("io\\.herald\\.adapters\\.(?!port\\b|http\\b|outbound\\b)[a-z0-9]+(\\..*)?");
    private static final List<String> PLUGIN_FREE_MODULES =
            List.of("command-side", "reconciliation", "query-side", "access", "platform", "api-contracts");

    @Test
    void noModuleButTheAdaptersAndTheAssemblyUsesAProvidersClasses() {
        JavaClasses herald = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.herald");
        ArchRuleDefinition.noClasses()
                .that().resideOutsideOfPackages("io.herald.adapters..", "io.herald.deploy..")
                .should().dependOnClassesThat(new DescribedPredicate<JavaClass>("reside in a provider's package") {
                    @Override
                    public boolean test(JavaClass type) {
                        return PROVIDER_PACKAGE.matcher(type.getPackageName()).matches();
                    }
                })
                .check(herald);
    }

    /**
     * The sandbox's shared plumbing (state, faults, replies, the shared admin endpoints) reaches no
     * provider's package: what differs between providers is in each provider's package. The demo
     * connections are the one list that names them all.
     */
    @Test
    void theSandboxsSharedCodeUsesNoProvidersPackage() {
        JavaClasses sandbox = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.herald.sandbox");
        ArchRuleDefinition.noClasses()
                .that().resideInAPackage("io.herald.sandbox")
                .and().doNotHaveFullyQualifiedName("io.herald.sandbox.SandboxDemo")
                .should().dependOnClassesThat(new DescribedPredicate<JavaClass>("reside in a provider's sandbox package") {
                    @Override
                    public boolean test(JavaClass type) {
                        return type.getPackageName().startsWith("io.herald.sandbox.");
                    }
                })
                .check(sandbox);
    }

    @Test
    void theCodeOfThePlugInFreeModulesNamesNoChannelType() throws IOException {
        List<String> names = registeredTypes().stream().map(ChannelType::wireName).toList();
        assertThat(names).contains("facebook", "linkedin", "wordpress");
        Pattern named = Pattern.compile("\\b(" + String.join("|", names) + ")\\b");
        List<String> found = new ArrayList<>();
        for (String module : PLUGIN_FREE_MODULES) {
            Path sources = Path.of("..", module, "src", "main", "java");
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    String code = withoutDeclarations(withoutComments(Files.readString(file)))
                            .toLowerCase(Locale.ROOT);
                    Matcher m = named.matcher(code);
                    while (m.find()) {
                        found.add(sources.relativize(file) + ": " + m.group());
                    }
                }
            }
        }
        assertThat(found).as("channel types named in code outside the plug-ins").isEmpty();
    }

    /**
     * The console draws what the server says ({@code GET …/channel-types}): its scripts, styles and
     * page name no channel type either (no {@code type === 'mastodon'}, no field of one provider),
     * comments aside.
     */
    @Test
    void theConsoleNamesNoChannelType() throws IOException {
        Pattern named = typeNames();
        List<String> found = new ArrayList<>();
        Path resources = Path.of("..", "query-side", "src", "main", "resources");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(resources)) {
            files = walk.filter(f -> f.toString().matches(".*\\.(js|css|html)$")).toList();
        }
        assertThat(files).as("the console's files").extracting(f -> f.getFileName().toString())
                .contains("console-channels.js", "console.html");
        for (Path file : files) {
            String source = Files.readString(file);
            String code = (file.toString().endsWith(".html") ? withoutMarkupComments(source)
                    : withoutScriptComments(source)).toLowerCase(Locale.ROOT);
            Matcher m = named.matcher(code);
            while (m.find()) {
                found.add(resources.relativize(file) + ": " + m.group());
            }
        }
        assertThat(found).as("channel types named in the console").isEmpty();
    }

    @Test
    void theConsoleCheckSeesANameInScriptAndMarkupAndNotInAComment() {
        Pattern named = typeNames();
        assertThat(named.matcher(withoutScriptComments("if (type === 'mastodon') { x(); }")).find()).isTrue();
        assertThat(named.matcher(withoutScriptComments("var t = { bluesky: 1, s: \"a//b\" };")).find()).isTrue();
        assertThat(named.matcher(withoutScriptComments("var u = `${x}threads`; // wordpress")).find()).isTrue();
        assertThat(named.matcher(withoutScriptComments("// facebook\n/* linkedin */ var a = '//'; /* threads */"))
                .find()).isFalse();
        assertThat(named.matcher(withoutMarkupComments("<label for=\"i\">Mastodon instance</label>")
                .toLowerCase(Locale.ROOT)).find()).isTrue();
        assertThat(named.matcher(withoutMarkupComments("<!-- instagram -->\n<p>Connect</p>")).find()).isFalse();
    }

    private static Pattern typeNames() {
        List<String> names = registeredTypes().stream().map(ChannelType::wireName).toList();
        assertThat(names).contains("facebook", "mastodon", "bluesky");
        return Pattern.compile("\\b(" + String.join("|", names) + ")\\b");
    }

    /** Markup without its {@code <!-- -->} comments. */
    static String withoutMarkupComments(String source) {
        return source.replaceAll("(?s)<!--.*?-->", "");
    }

    /**
     * A script or style sheet without its comments ({@code //} and {@code /* *}{@code /}); its
     * strings, quoted with {@code '}, {@code "} or {@code `}, are kept. Good enough for the console's
     * own files (a regular expression literal holding {@code //} would be read as a comment).
     */
    static String withoutScriptComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = i + 1;
                while (end < source.length() && source.charAt(end) != c) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                out.append(source, i, Math.min(end + 1, source.length()));
                i = end + 1;
            } else if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    @Test
    void theCheckSeesANameInCodeAndNotInAComment() {
        assertThat(withoutComments("// facebook\n/* linkedin */ String x = \"wordpress\"; /** bluesky */"))
                .doesNotContain("facebook", "linkedin", "bluesky").contains("\"wordpress\"");
        assertThat(withoutDeclarations("package io.herald.platform.threads;\nimport io.herald.platform.threads.B;\n"
                + "  import static io.herald.platform.threads.B.of;\nString x = \"threads\";"))
                .isEqualTo("String x = \"threads\";");
    }

    /** The source without its {@code package} and {@code import} lines. */
    static String withoutDeclarations(String source) {
        return source.replaceAll("(?m)^[ \\t]*(package|import)\\s[^;]*;[ \\t]*\\r?\\n?", "");
    }

    private static List<ChannelType> registeredTypes() {
        return ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC()).types();
    }

    /** Java source without its comments (string literals kept); good enough for Herald's own sources. */
    static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? source.length() : end + 3;
                out.append(source, i, end);
                i = end;
            } else if (c == '\'') {
                int end = i + 1;
                while (end < source.length() && source.charAt(end) != '\'') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                i = end + 1;
            } else if (c == '"') {
                int end = i + 1;
                while (end < source.length() && source.charAt(end) != '"') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                out.append(source, i, Math.min(end + 1, source.length()));
                i = end + 1;
            } else if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
