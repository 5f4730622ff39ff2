package io.herald.deploy.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.FilterChain;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class IntakeAdmissionFilterTest {

    private static final String INTAKE = "/api/v1/workspaces/acme/publications";

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final IntakeAdmissionFilter filter = new IntakeAdmissionFilter(1, Duration.ofMillis(50), meters);

    @Test
    void aRequestFindingEveryPlaceTakenIsRefusedAtOnceAndMaySimplyBeSentAgain() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<MockHttpServletResponse> first = CompletableFuture.supplyAsync(() -> run(INTAKE,
                (req, res) -> {
                    inside.countDown();
                    await(release);
                    ((jakarta.servlet.http.HttpServletResponse) res).setStatus(202);
                }));
        assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();

        MockHttpServletResponse refused = run(INTAKE, (req, res) -> {
            throw new AssertionError("a refused request must not reach Herald");
        });
        assertThat(refused.getStatus()).isEqualTo(503);
        assertThat(refused.getContentType()).startsWith("application/problem+json");
        assertThat(refused.getContentAsString()).contains("\"code\":\"overloaded\"");
        assertThat(refused.getHeader("Retry-After")).isEqualTo("1");
        assertThat(meters.get("herald.intake.refused").counter().count()).isEqualTo(1.0);

        release.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS).getStatus()).isEqualTo(202);
        MockHttpServletResponse again = run(INTAKE, (req, res) ->
                ((jakarta.servlet.http.HttpServletResponse) res).setStatus(202));
        assertThat(again.getStatus()).as("the place is free again once the first request is answered")
                .isEqualTo(202);
    }

    @Test
    void onlyTheIntakeIsLimited() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<MockHttpServletResponse> held = CompletableFuture.supplyAsync(() -> run(INTAKE,
                (req, res) -> {
                    inside.countDown();
                    await(release);
                }));
        assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
        try {
            for (String path : new String[] {"/api/v1/workspaces/acme/publications/pub_1/execute",
                    "/api/v1/workspaces/acme/channels/fb/probe", "/api/v1/admin/workspaces"}) {
                assertThat(run(path, (req, res) -> ((jakarta.servlet.http.HttpServletResponse) res).setStatus(202))
                        .getStatus()).as(path).isEqualTo(202);
            }
            MockHttpServletRequest list = new MockHttpServletRequest("GET", INTAKE);
            MockHttpServletResponse listed = new MockHttpServletResponse();
            filter.doFilter(list, listed, (req, res) -> ((jakarta.servlet.http.HttpServletResponse) res)
                    .setStatus(200));
            assertThat(listed.getStatus()).isEqualTo(200);
        } finally {
            release.countDown();
            held.get(5, TimeUnit.SECONDS);
        }
    }

    private MockHttpServletResponse run(String path, FilterChain chain) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
        request.setRequestURI(path);
        MockHttpServletResponse response = new MockHttpServletResponse();
        try {
            filter.doFilter(request, response, chain);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return response;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
