package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.sandbox.threads.ThreadsSandboxClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import io.herald.testsupport.TestDatabase;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A Threads connection's budget, made small (two attempts a minute): two posts need four attempts,
 * so one waits with {@code throttledUntil} until the window rolls, and then both are published,
 * each once. Its own application (port, sandbox and database), for the small budget.
 */
@TestPropertySource(properties = {
        // an application of its own beside the shared one: its own port, and its sandbox on it
        "herald.test.sandbox-loopback=false",
        "herald.channels.threads.quota-calls=2",
        "herald.channels.threads.quota-window=60s"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Tag("own-jvm")
class ThreadsQuotaIT extends HeraldIntegrationTest {

    /** Its own database: no other application's sweeps start this test's attempts with another budget. */
    private static final TestDatabase OWN = TestDatabase.shared().freshSibling();

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", OWN::jdbcUrl);
    }

    @Value("${herald.channels.threads.base-url}")
    String threadsApi;

    @Test
    void anAttemptOverTheBudgetWaitsAndIsPublishedWhenTheWindowRolls() throws InterruptedException {
        // the sandbox this application's Threads adapter calls
        ThreadsSandboxClient threads = new ThreadsSandboxClient(threadsApi.substring(0,
                threadsApi.indexOf("/sandbox/")));
        String ws = newWorkspace("threads-quota");
        String token = "th-quota-" + System.nanoTime();
        String user = threads.user("quota", token);
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/th", "{\"type\":\"threads\","
                + "\"threadsUserId\":\"" + user + "\",\"accessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        List<String> publications = List.of(publish(ws, "q-1"), publish(ws, "q-2"));

        boolean throttled = false;
        long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
        int succeeded = 0;
        while (System.nanoTime() < deadline && succeeded < 2) {
            succeeded = 0;
            for (String id : publications) {
                Response view = send("GET", "/api/v1/workspaces/" + ws + "/publications/" + id, null);
                if (view.status() != 200) {
                    continue;
                }
                JsonNode json = view.json();
                throttled |= json.hasNonNull("throttledUntil");
                if (json.get("status").asText().equals("SUCCEEDED")) {
                    succeeded++;
                }
            }
            Thread.sleep(200);
        }
        assertThat(succeeded).as("both publications published once the window rolled").isEqualTo(2);
        assertThat(throttled).as("an attempt waited for the budget, and the view said until when").isTrue();
        JsonNode posts = threads.threads(user);
        assertThat(posts).hasSize(2);
    }

    private String publish(String ws, String entry) {
        Response r = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"th","action":"publish",
                 "content":{"body":"Within the budget %s"}}""".formatted(entry, entry));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }
}
