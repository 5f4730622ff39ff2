package io.herald.platform.problem;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class ProblemsTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void everyCodeHasItsOwnType() {
        assertThat(Problems.type(ErrorCode.NOT_FOUND)).hasToString("urn:herald:problem:not_found");
        assertThat(List.of(ErrorCode.values()).stream().map(Problems::type).distinct())
                .hasSize(ErrorCode.values().length);
    }

    @Test
    void aFilterWritesTheMembersInTheOrderOfEveryOtherAnswer() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/workspaces/w/publications");
        MockHttpServletResponse response = new MockHttpServletResponse();

        Problems.write(request, response, ErrorCode.RATE_LIMITED, "slow down");

        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        JsonNode body = json.readTree(response.getContentAsByteArray());
        List<String> members = new ArrayList<>();
        body.fieldNames().forEachRemaining(members::add);
        assertThat(members).containsExactly("type", "title", "status", "detail", "instance", "code");
        assertThat(body.get("type").asText()).isEqualTo("urn:herald:problem:rate_limited");
        assertThat(body.get("title").asText()).isEqualTo("Too Many Requests");
        assertThat(body.get("status").asInt()).isEqualTo(429);
        assertThat(body.get("detail").asText()).isEqualTo("slow down");
        assertThat(body.get("instance").asText()).isEqualTo("/api/v1/workspaces/w/publications");
        assertThat(body.get("code").asText()).isEqualTo("rate_limited");
    }

    @Test
    void aCommittedResponseIsLeftAlone() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        response.getOutputStream().write("partial".getBytes());
        response.flushBuffer();

        Problems.write(new MockHttpServletRequest("GET", "/x"), response, ErrorCode.INTERNAL_ERROR, "late");

        assertThat(response.getContentAsString()).isEqualTo("partial");
        assertThat(response.getStatus()).isEqualTo(200);
    }

    @Test
    void aStatusOfItsOwnKeepsTheNearestCodeAndFieldProblemsGoInErrors() throws Exception {
        JsonNode body = json.readTree(Problems.json(Problems.of(414, ErrorCode.VALIDATION_FAILED, "too long",
                List.of(new FieldViolation("$", "is not valid")))));

        assertThat(body.get("status").asInt()).isEqualTo(414);
        assertThat(body.get("title").asText()).isEqualTo("URI Too Long");
        assertThat(body.get("code").asText()).isEqualTo("validation_failed");
        assertThat(body.has("instance")).isFalse();
        assertThat(body.get("errors").get(0).get("field").asText()).isEqualTo("$");
    }
}
