package io.herald.query.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.publication.PublicationStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The console offers every publication status: in its status filter and among its counted tiles. */
class ConsoleStatusesTest {

    private static final List<String> STATUSES = Arrays.stream(PublicationStatus.values()).map(Enum::name).toList();

    @Test
    void theStatusFilterOffersEveryStatus() throws IOException {
        String page = read("templates/console.html");
        String select = page.substring(page.indexOf("<select id=\"find-status\">"));
        select = select.substring(0, select.indexOf("</select>"));
        assertThat(all(Pattern.compile("<option>([A-Z_]+)</option>").matcher(select)))
                .containsExactlyInAnyOrderElementsOf(STATUSES);
    }

    @Test
    void theCountsNameEveryStatus() throws IOException {
        String script = read("static/console/console.js");
        String counted = script.substring(script.indexOf("var COUNTED = ["));
        counted = counted.substring(0, counted.indexOf("];"));
        assertThat(all(Pattern.compile("'([A-Z_]+)'").matcher(counted))).containsExactlyInAnyOrderElementsOf(STATUSES);
    }

    private static List<String> all(Matcher matcher) {
        return matcher.results().map(m -> m.group(1)).toList();
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = ConsoleStatusesTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
