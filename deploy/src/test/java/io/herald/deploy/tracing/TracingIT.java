package io.herald.deploy.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.webhooks.WebhookReceiver;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;

/**
 * One W3C trace from a caller's {@code traceparent} to the provider call and the webhook: the
 * intake's log line, the attempt's log line (on the attempts' own threads, after the dispatcher
 * handled the stored event), the stored events' metadata and the webhook delivery's headers all
 * carry the caller's trace id. Log lines also name the correlation id and the publication.
 */
@ExtendWith(OutputCaptureExtension.class)
class TracingIT extends HeraldIntegrationTest {

    @Autowired
    ApplicationContext context;

    @Test
    void aCallersTraceReachesTheProviderCallAndTheWebhook(CapturedOutput output) throws Exception {
        String ws = newWorkspace("trace");
        String page = "43" + (System.nanoTime() % 10_000_000);
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-trace-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        assertThat(send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\",\"pageId\":\""
                + page + "\",\"pageAccessToken\":\"EAAB-trace-" + page + "\"}").status()).isEqualTo(201);
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        try {
            assertThat(send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/calendar", "{\"url\":\""
                    + receiver.url("/hooks") + "\",\"events\":[\"publication.succeeded\"]}").status()).isEqualTo(201);

            String traceId = hex(16);
            String path = "/api/v1/workspaces/" + ws + "/publications";
            Response accepted = sendAs(keyFor(path), "POST", path, "{\"calendarEntryId\":\"traced\","
                    + "\"contentVersion\":1,\"channelId\":\"fb\",\"action\":\"publish\",\"content\":{\"body\":\"traced"
                    + " from the calendar\"}}", "application/json",
                    Map.of("traceparent", "00-" + traceId + "-" + hex(8) + "-01", "X-Correlation-Id", "corr-" + traceId));
            assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
            String id = accepted.json().get("publicationId").asText();

            WebhookReceiver.Received delivery = awaitDelivery(receiver);
            assertThat(delivery.body()).contains(id);
            assertThat(delivery.traceparent()).as("the webhook's traceparent")
                    .matches("00-" + traceId + "-[0-9a-f]{16}-0[01]");

            String intake = line(output, "publication " + id + " requested");
            String attempt = line(output, "attempt 1 of " + id + " started");
            for (String line : List.of(intake, attempt)) {
                assertThat(line).contains(traceId).contains("corr-" + traceId).contains("[" + id + "]");
            }
            // the attempt is a span of its own in the trace: not the intake's
            assertThat(spanId(attempt)).isNotEqualTo(spanId(intake));

            List<String> metadata = jdbc.queryForList("SELECT convert_from(meta_data, 'UTF8') FROM domain_event_entry"
                    + " WHERE aggregate_identifier = ? ORDER BY sequence_number", String.class, id);
            assertThat(metadata).hasSizeGreaterThanOrEqualTo(3)
                    .allSatisfy(m -> assertThat(m).contains("\"traceparent\":\"00-" + traceId + "-"));
        } finally {
            receiver.stop();
        }
    }

    @Test
    void noSpanLeavesTheNodeUnlessAnOtlpEndpointIsConfigured() {
        assertThat(context.getEnvironment().getProperty("management.otlp.tracing.endpoint")).isNull();
        assertThat(context.getBeanProvider(SpanExporter.class).stream()).isEmpty();
    }

    private static WebhookReceiver.Received awaitDelivery(WebhookReceiver receiver) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!receiver.received().isEmpty()) {
                return receiver.received().get(0);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no webhook delivery within 30 s");
    }

    /** The log line that says this, waiting a little for threads still writing. */
    private static String line(CapturedOutput output, String says) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : output.getOut().split("\n")) {
                if (line.contains(says)) {
                    return line;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no log line says \"" + says + "\"");
    }

    /** The span id of the log pattern's [traceId,spanId]. */
    private static String spanId(String line) {
        java.util.regex.Matcher ids = java.util.regex.Pattern.compile("\\[([0-9a-f]{32}),([0-9a-f]{16})]").matcher(line);
        assertThat(ids.find()).as(line).isTrue();
        return ids.group(2);
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
