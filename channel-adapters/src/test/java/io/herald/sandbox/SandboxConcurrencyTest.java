package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import io.herald.adapters.wordpress.WordPressAdapter;
import io.herald.contracts.publication.Content;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Many slow requests at once: the sandbox holds them on its timer, not on servlet threads (Tomcat
 * has 200), and the adapter sends them without a thread each.
 */
class SandboxConcurrencyTest extends SandboxTestSupport {

    private static final int REQUESTS = 1_200;

    @AfterEach
    void noLatency() {
        sandbox.latency(0);
    }

    @Test
    void holdsMoreSlowRequestsAtOnceThanThereAreServletThreads() {
        String pageId = numericId();
        String token = unique("EAAConc");
        sandbox.facebookToken(token, pageId, FacebookTokenKind.PAGE);
        ChannelConnection connection = facebookConnection(pageId, token, null);
        // Generous timeouts: 1,200 connections opened at once on a busy machine may wait to be accepted.
        var adapter = new io.herald.adapters.facebook.FacebookAdapter(new io.herald.adapters.http.ProviderHttp(
                "facebook", Duration.ofSeconds(60), Duration.ofSeconds(120), clock), sandbox.facebookGraphUrl());
        sandbox.latency(2_000);

        List<CompletableFuture<PublishOutcome>> calls = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            calls.add(adapter.publish(publish(connection, new Content(null, "concurrent post " + i, null))));
        }
        List<PublishOutcome> outcomes = calls.stream().map(SandboxTestSupport::result).toList();

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(PublishOutcome.Published.class));
        assertThat(sandbox.truth("facebook", pageId)).hasSize(REQUESTS);
        assertThat(server.state().mostPendingAnswers()).isGreaterThan(200);
    }
}
