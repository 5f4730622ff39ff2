package io.herald.deploy.http;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.platform.problem.Problems;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.tags.Tag;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.herald.adapters.port.ChannelPlugins;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;

/**
 * Turns springdoc's reading of the controllers into the published contract: operation ids, tags and
 * summaries from {@link ApiOperations}, the success statuses the controllers really answer, typed
 * query parameters, and every problem+json answer with its codes (one shared Problem schema).
 */
@Configuration(proxyBeanMethods = false)
public class ContractApiDocs {

    static final String PROBLEM = "Problem";
    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String PROBLEM_REF = "#/components/schemas/" + PROBLEM;

    /** Statuses a success may have where it is not 200 (the first carries the documented body). */
    private static final Map<String, List<Integer>> SUCCESS = Map.ofEntries(
            Map.entry("POST /api/v1/admin/workspaces", List.of(201, 200)),
            Map.entry("POST /api/v1/workspaces/{ws}/keys", List.of(201)),
            Map.entry("DELETE /api/v1/workspaces/{ws}/keys/{keyId}", List.of(204)),
            Map.entry("DELETE /api/v1/workspaces/{ws}/signing-secret", List.of(204)),
            Map.entry("POST /api/v1/workspaces/{ws}/publications", List.of(202, 200)),
            Map.entry("POST /api/v1/workspaces/{ws}/publications/{id}/execute", List.of(202)),
            Map.entry("POST /api/v1/workspaces/{ws}/publications/{id}/reconcile", List.of(202)),
            Map.entry("POST /api/v1/workspaces/{ws}/media", List.of(201, 200)),
            Map.entry("DELETE /api/v1/workspaces/{ws}/media/{mediaId}", List.of(204)),
            Map.entry("PUT /api/v1/workspaces/{ws}/channels/{channelId}", List.of(201, 200)),
            Map.entry("PUT /api/v1/workspaces/{ws}/webhooks/{webhookId}", List.of(201, 200)),
            Map.entry("DELETE /api/v1/workspaces/{ws}/webhooks/{webhookId}", List.of(204)),
            Map.entry("POST /api/v1/workspaces/{ws}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
                    List.of(202)),
            Map.entry("POST /api/v1/admin/projections/{name}/rebuild", List.of(202)),
            Map.entry("POST /api/v1/admin/audit/verify", List.of(202)));

    /** Answers that are not JSON, which springdoc cannot see in the handler's signature. */
    private static final Map<String, Content> OTHER_BODIES = Map.of(
            "GET /api/v1/workspaces/{ws}/media/{mediaId}/content", images(),
            "GET /media/public/{token}", images(),
            "GET /api/v1/workspaces/{ws}/audit/events", ndjson(),
            "GET /api/v1/audit/events", ndjson(),
            "GET /oauth/callback/{type}", new Content().addMediaType("application/json",
                    new MediaType().schema(
                            new Schema<>().$ref("#/components/schemas/ConnectResult"))));

    /** The tags in the order the document lists them. */
    private static final List<Tag> TAGS = List.of(
            tag("publications", "Publication requests and their outcome (publisher)"),
            tag("operator", "Decisions, read-backs and statistics (operator)"),
            tag("media", "Images to attach to publications"),
            tag("channels", "Connections to the channels Herald publishes to (admin)"),
            tag("webhooks", "Standard Webhooks subscriptions and deliveries"),
            tag("audit", "The event store, read-only (auditor)"),
            tag("workspaces", "Workspaces, API keys and request signing"),
            tag("admin", "Whole-store operations (system key)"));

    @Bean
    OpenApiCustomizer contractOperations(ChannelPlugins channelPlugins) {
        return openApi -> {
            openApi.getComponents().addSchemas(PROBLEM, problemSchema());
            ChannelSchemas.add(openApi, channelPlugins);
            openApi.setTags(new ArrayList<>(TAGS));
            openApi.getPaths().forEach((path, item) -> item.readOperationsMap()
                    .forEach((method, operation) -> describe(method.name() + " " + path, operation)));
            ApiExamples.add(openApi);
            AnchoredPatterns.anchor(openApi);
        };
    }

    private static void describe(String route, Operation operation) {
        ApiOperations.Operation known = ApiOperations.BY_ROUTE.get(route);
        List<ErrorCode> problems = new ArrayList<>();
        if (known != null) {
            operation.operationId(known.id()).tags(List.of(known.tag())).summary(known.summary());
            problems.addAll(known.problems());
        } else {
            operation.tags(List.of("admin"));
        }
        successes(route, operation);
        problems.addAll(List.of(ErrorCode.UNAUTHENTICATED, ErrorCode.SIGNATURE_INVALID, ErrorCode.FORBIDDEN,
                ErrorCode.RATE_LIMITED, ErrorCode.INTERNAL_ERROR));
        if (route.contains("{")) {
            problems.add(ErrorCode.NOT_FOUND);
        }
        problemAnswers(operation.getResponses(), problems);
        if (operation.getParameters() != null) {
            operation.getParameters().forEach(parameter -> typed(route, parameter));
        }
    }

    private static void successes(String route, Operation operation) {
        ApiResponses responses = operation.getResponses();
        ApiResponse ok = responses.get("200");
        List<Integer> statuses = SUCCESS.getOrDefault(route, List.of(200));
        responses.clear();
        for (int status : statuses) {
            ApiResponse answer = new ApiResponse().description(successDescription(status));
            if (OTHER_BODIES.containsKey(route)) {
                answer.content(OTHER_BODIES.get(route));
            } else if (status != 204 && ok != null && ok.getContent() != null) {
                answer.content(ok.getContent());
            }
            responses.addApiResponse(String.valueOf(status), answer);
        }
    }

    private static Content images() {
        Content content = new Content();
        for (String type : List.of("image/jpeg", "image/png", "image/gif", "image/webp")) {
            content.addMediaType(type, new MediaType().schema(new StringSchema().format("binary")));
        }
        return content;
    }

    private static Content ndjson() {
        return new Content().addMediaType("application/x-ndjson", new MediaType().schema(new StringSchema()
                .description("one stored event per line, in chain order, with workspaceId, prevHash and hash;"
                        + " then the newest signed checkpoint of each chain ({\"checkpoint\": {…}}), see docs/audit.md")));
    }

    private static String successDescription(int status) {
        return switch (status) {
            case 201 -> "Created";
            case 202 -> "Accepted";
            case 204 -> "No Content";
            default -> "OK";
        };
    }

    /** One answer per status, naming its codes, each code an example with its stable type URI. */
    private static void problemAnswers(ApiResponses responses, List<ErrorCode> codes) {
        Map<Integer, List<ErrorCode>> byStatus = new TreeMap<>();
        codes.stream().distinct().forEach(code -> byStatus.computeIfAbsent(code.httpStatus(), s -> new ArrayList<>())
                .add(code));
        byStatus.forEach((status, ofStatus) -> {
            MediaType problem = new MediaType().schema(new Schema<>().$ref(PROBLEM_REF));
            for (ErrorCode code : ofStatus) {
                Map<String, Object> example = new LinkedHashMap<>();
                example.put("type", Problems.TYPE_PREFIX + code.code());
                example.put("title", HttpStatus.valueOf(status).getReasonPhrase());
                example.put("status", status);
                example.put("detail", "what went wrong, for a person to read");
                example.put("code", code.code());
                problem.addExamples(code.code(), new Example().value(example));
            }
            responses.addApiResponse(String.valueOf(status), new ApiResponse()
                    .description(String.join(" | ", ofStatus.stream().map(ErrorCode::code).toList()))
                    .content(new Content().addMediaType(PROBLEM_JSON, problem)));
        });
    }

    /** The controllers read query parameters as text to refuse bad ones with a problem; say what they are. */
    private static void typed(String route, Parameter parameter) {
        if (!"query".equals(parameter.getIn())) {
            return;
        }
        switch (parameter.getName()) {
            case "limit" -> parameter.schema(new IntegerSchema().format("int32").minimum(BigDecimal.ONE))
                    .description("Page size");
            case "after" -> parameter.schema(new IntegerSchema().format("int64")).description("Store position to read after");
            case "needsDecision", "held" -> parameter.schema(new BooleanSchema());
            case "status" -> parameter.schema(new StringSchema()._enum(route.endsWith("/deliveries")
                    ? List.of("PENDING", "DELIVERED", "FAILED")
                    : Arrays.stream(PublicationStatus.values()).map(Enum::name).toList()));
            case "from", "to" -> parameter.schema(new StringSchema().format("date-time"));
            case "asOf" -> parameter.schema(new StringSchema().format("date-time"))
                    .description("The view as it stood at this instant (operator, auditor), with asOf echoed");
            case "cursor" -> parameter.description("nextCursor of the previous page");
            default -> {
            }
        }
    }

    private static Tag tag(String name, String description) {
        return new Tag().name(name).description(description);
    }

    private static Schema<?> problemSchema() {
        Schema<?> violation = new ObjectSchema()
                .addProperty("field", new StringSchema())
                .addProperty("message", new StringSchema());
        return new ObjectSchema()
                .description("RFC 9457 problem details; `code` is stable, `type` is urn:herald:problem:<code>")
                .addProperty("type", new StringSchema().format("uri").example("urn:herald:problem:validation_failed"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema())
                .addProperty("code", new StringSchema()._enum(Arrays.stream(ErrorCode.values())
                        .map(ErrorCode::code).toList()))
                .addProperty("errors", new ArraySchema().items(violation))
                .required(List.of("type", "status", "code"));
    }
}
