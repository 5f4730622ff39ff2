package io.herald.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class SystemKeyTest {

    @TempDir
    Path dataDirectory;

    @Test
    void aGeneratedKeyIsPrintedOnceKeptOnlyAsItsHashAndStillWorksAfterARestart() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(SystemKey.class);
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        try {
            SystemKey first = SystemKey.fromDataDirectory(dataDirectory, false);
            SystemKey afterRestart = SystemKey.fromDataDirectory(dataDirectory, false);

            assertThat(logs.list).hasSize(1);
            Matcher printed = Pattern.compile("(hs\\.[A-Za-z0-9_-]{43})").matcher(logs.list.get(0).getFormattedMessage());
            assertThat(printed.find()).isTrue();
            String key = printed.group(1);
            assertThat(first.matches(key)).isTrue();
            assertThat(afterRestart.matches(key)).isTrue();
            assertThat(afterRestart.matches(key + "x")).isFalse();
            String kept = Files.readString(dataDirectory.resolve(SystemKey.HASH_FILE));
            assertThat(kept).matches("[0-9a-f]{64}").doesNotContain(key.substring(3));
        } finally {
            logger.detachAppender(logs);
        }
    }

    @Test
    void aConfiguredKeyMustBeLongEnough() {
        assertThatThrownBy(() -> SystemKey.configured("short")).isInstanceOf(IllegalStateException.class)
                .hasMessageNotContaining("short");
        assertThat(SystemKey.configured("x".repeat(32)).matches("x".repeat(32))).isTrue();
        assertThat(SystemKey.configured("x".repeat(32)).matches("x".repeat(31))).isFalse();
        String base64 = "q8Vw1+Zr/Jc2kP0Hn9Yd3Lm5Tg7Xb4Ra6Se8Uf0Wh2o=";
        assertThat(ApiKeyAuthenticationFilter.KEY_SHAPE.matcher(base64).matches()).isTrue();
        assertThat(SystemKey.configured(base64).matches(base64)).isTrue();
        assertThatThrownBy(() -> SystemKey.configured("x".repeat(31) + " y")).isInstanceOf(IllegalStateException.class);
    }
}
