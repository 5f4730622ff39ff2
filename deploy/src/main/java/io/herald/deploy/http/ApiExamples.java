package io.herald.deploy.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Examples of the contract's bodies, as the API answers them: set on their component schemas, and
 * on every success answer with a JSON body, so each operation shows what it returns.
 */
final class ApiExamples {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMAS = "#/components/schemas/";

    private static final String PUBLICATION = """
            {"publicationId":"pub_01JD3Q7R2M8X","workspaceId":"acme","calendarEntryId":"entry-42",
             "contentVersion":3,"channelId":"blog","channelType":"wordpress","action":"publish",
             "status":"SUCCEEDED","providerRef":{"id":"4711","url":"https://blog.example/?p=4711"},
             "steps":[{"step":"create_post","status":"SUCCEEDED","attempts":1}],
             "attempts":[{"attemptNo":1,"startedAt":"2026-12-01T09:00:01Z","outcome":"SUCCEEDED",
                          "httpStatus":200}],
             "reconciliations":[],"needsDecision":false,"updatedAt":"2026-12-01T09:10:03Z",
             "verifiedAt":"2026-12-01T09:10:03Z"}""";
    private static final String WEBHOOK = """
            {"webhookId":"calendar","url":"https://calendar.example/hooks/herald",
             "events":["publication.succeeded","publication.needs_decision"],"enabled":true,"paused":false,
             "createdAt":"2026-12-01T08:00:00Z"}""";
    private static final String KEY = """
            {"keyId":"key_7Q2M","label":"calendar","roles":["publisher"],"createdAt":"2026-12-01T08:00:00Z",
             "createdBy":"admin:ops","lastUsedAt":"2026-12-01T09:00:00Z"}""";

    /** By component schema name. */
    private static final Map<String, String> EXAMPLES = Map.ofEntries(
            Map.entry("PublicationRequest", """
                    {"calendarEntryId":"entry-42","contentVersion":3,"channelId":"fb-main","action":"publish",
                     "content":{"title":"Spring fair","body":"Join us on Saturday","link":"https://example.org/fair",
                                "firstComment":"Tickets at the door"},
                     "scheduledAt":"2026-12-01T09:00:00Z"}"""),
            Map.entry("PublicationView", PUBLICATION),
            Map.entry("PublicationPage", "{\"items\":[" + PUBLICATION + "],\"nextCursor\":\"MjAyNi0xMi0wMVQwOTowMDowMlo\"}"),
            Map.entry("DecisionRequest", """
                    {"decision":"confirm_published","providerRef":{"id":"4711","url":"https://blog.example/?p=4711"},
                     "note":"checked the Page by hand"}"""),
            Map.entry("ChannelConnectionRequest", """
                    {"type":"facebook","pageId":"1234567890","pageAccessToken":"EAAB…"}"""),
            Map.entry("ChannelConnectionView", """
                    {"workspaceId":"acme","channelId":"fb-main","type":"facebook","status":"ACTIVE",
                     "settings":{"type":"facebook","pageId":"1234567890"},
                     "capabilities":{"publish":{"available":true},"reconcile":{"available":true}},
                     "retrySafety":"read_back","autoReattemptAfterNotFound":false,"verifyAfterSuccess":true,
                     "heldPublications":0,
                     "probedAt":"2026-12-01T08:00:00Z","updatedAt":"2026-12-01T08:00:00Z"}"""),
            Map.entry("ConnectStart", """
                    {"authorizeUrl":"https://www.facebook.com/v25.0/dialog/oauth?client_id=1234&state=c2ln&code_challenge=E9Me",
                     "expiresAt":"2026-12-01T08:10:00Z"}"""),
            Map.entry("ConnectResult", """
                    {"workspace":"acme","channelId":"fb-main","state":"…",
                     "choices":[{"id":"1234567890","name":"Acme Spring Fair","kind":"page"}]}"""),
            Map.entry("ConnectChoice", """
                    {"id":"1234567890","name":"Acme Spring Fair","kind":"page"}"""),
            Map.entry("ChannelTypeView", """
                    {"type":"wordpress","label":"WordPress","icon":"W","connect":"form","available":true,
                     "startFields":[],
                     "fields":[{"name":"siteUrl","label":"Site URL","secret":false,"required":true,
                                "placeholder":"https://blog.example"},
                               {"name":"username","label":"User name","secret":false,"required":true},
                               {"name":"applicationPassword","label":"Application password","secret":true,
                                "required":true}],
                     "secretGuide":"{siteUrl}/wp-admin/profile.php#application-passwords-section"}"""),
            Map.entry("ChannelTypeField", """
                    {"name":"instanceUrl","label":"Mastodon instance","secret":false,"required":true,
                     "placeholder":"https://mastodon.social"}"""),
            Map.entry("ConnectChoiceRequest", """
                    {"state":"…","id":"1234567890"}"""),
            Map.entry("Capabilities", """
                    {"publish":{"available":true},
                     "reconcile":{"available":false,"reason":"the token cannot read the Page's posts"}}"""),
            Map.entry("WebhookRequest", """
                    {"url":"https://calendar.example/hooks/herald",
                     "events":["publication.succeeded","publication.needs_decision"],"enabled":true}"""),
            Map.entry("WebhookAnswer", WEBHOOK),
            Map.entry("DeliveryPage", """
                    {"items":[{"deliveryId":"dlv_3f9a","type":"publication.succeeded","publicationId":"pub_01JD3Q7R2M8X",
                               "status":"DELIVERED","tries":1,"lastStatusCode":204,"nextTryAt":"2026-12-01T09:00:03Z",
                               "createdAt":"2026-12-01T09:00:02Z","deliveredAt":"2026-12-01T09:00:03Z"}]}"""),
            Map.entry("WorkspaceRequest", """
                    {"workspaceId":"acme","name":"ACME"}"""),
            Map.entry("Workspace", """
                    {"workspaceId":"acme","name":"ACME","createdAt":"2026-12-01T08:00:00Z"}"""),
            Map.entry("KeyRequest", """
                    {"roles":["publisher"],"label":"calendar"}"""),
            Map.entry("IssuedKey", """
                    {"keyId":"key_7Q2M","key":"k_live_2b7e151628aed2a6abf7158809cf4f3c","roles":["publisher"],
                     "label":"calendar"}"""),
            Map.entry("SigningState", """
                    {"workspaceId":"acme","signaturesRequired":true}"""),
            Map.entry("MediaView", """
                    {"mediaId":"med_9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     "contentType":"image/png","bytes":48213,"width":1200,"height":630,
                     "createdAt":"2026-12-01T08:55:00Z"}"""),
            Map.entry("PublicationCounts", """
                    {"workspaceId":"acme","total":120,"needsDecision":1,
                     "byStatus":{"SUCCEEDED":112,"FAILED":2,"OUTCOME_UNKNOWN":1,"REQUESTED":5},
                     "byChannel":{"fb-main":{"total":60,"needsDecision":1,"byStatus":{"SUCCEEDED":57,"OUTCOME_UNKNOWN":1,
                                  "REQUESTED":2}}}}"""),
            Map.entry("PublicationStats", """
                    {"workspaceId":"acme","window":"PT24H","from":"2026-12-01T00:00:00Z","to":"2026-12-02T00:00:00Z",
                     "hours":[{"hour":"2026-12-01T09:00:00Z","succeeded":14,"failed":1,"outcomeUnknown":0,"held":0,
                               "openCases":1}],
                     "answerTimes":[{"channelId":"fb-main","answers":15,"medianMs":420,"p95Ms":1310}]}"""),
            Map.entry("StoredEvent", """
                    {"position":1042,"aggregateId":"pub_01JD3Q7R2M8X","sequence":2,
                     "type":"io.herald.contracts.publication.PublicationSucceededEvent","revision":"1",
                     "timestamp":"2026-12-01T09:00:02Z","payload":{"attemptNo":1},"metadata":{"correlationId":"c0ffee"}}"""),
            Map.entry("Breach", """
                    {"publicationId":"pub_01JD3Q7R2M8X","rule":1,"sequence":4,
                     "detail":"a second attempt started without a read back after an unknown outcome"}"""),
            Map.entry("VerificationJob", """
                    {"jobId":"job_5d1c","status":"RUNNING","eventsDone":40000,"eventsTotal":1000000,
                     "startedAt":"2026-12-01T10:00:00Z"}"""),
            Map.entry("ProcessorStatus", """
                    {"name":"publication-view","projection":true,"running":true,"caughtUp":true,"replaying":false,
                     "segments":[{"segment":0,"caughtUp":true,"replaying":false,"position":1042,"errored":false}]}"""),
            Map.entry("RebuildAccepted", """
                    {"name":"publication-view","status":"rebuilding"}"""),
            Map.entry("DeadLetterReport", """
                    {"checkedAt":"2026-12-01T10:00:00Z","deadLetterCount":1,
                     "deadLetters":[{"processingGroup":"publication-view","eventType":"PublicationSucceededEvent",
                                     "sequenceIdentifier":"pub_01JD3Q7R2M8X","cause":"the view row could not be written",
                                     "enqueuedAt":"2026-12-01T09:00:03Z"}],
                     "stuckTimerCount":0,"stuckTimers":[]}"""),
            Map.entry("AuditKeys", """
                    {"keys":[{"keyId":"ed25519-7f3a9c21","publicKey":"MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=",
                              "from":"2026-12-01T09:01:00Z"}]}"""),
            Map.entry("AuditChainProgress", """
                    {"storeHead":1042,"chainedThrough":1042,"eventsChained":1043,"caughtUp":true}"""),
            Map.entry("Resealed", """
                    {"keyId":"2026-12","channelConnections":4,"webhookSecrets":2,"signingSecrets":1}"""));

    /** Success bodies with no component schema of their own, by route. */
    private static final Map<String, String> BY_ROUTE = Map.of(
            "GET /api/v1/workspaces/{ws}/keys", "{\"items\":[" + KEY + "]}",
            "GET /api/v1/workspaces/{ws}/webhooks", "{\"items\":[" + WEBHOOK + "]}",
            "POST /api/v1/workspaces/{ws}/webhooks/{webhookId}/secret",
            "{\"webhookId\":\"calendar\",\"secret\":\"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\"}");

    private ApiExamples() {
    }

    static void add(OpenAPI openApi) {
        Map<String, Schema> schemas = openApi.getComponents().getSchemas();
        EXAMPLES.forEach((name, json) -> {
            Schema<?> schema = schemas.get(name);
            if (schema != null) {
                schema.example(parse(json));
            }
        });
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                operation.getResponses().forEach((status, answer) -> {
                    if (status.startsWith("2")) {
                        successExample(method.name() + " " + path, answer);
                    }
                })));
    }

    /** A JSON success body shows its example where the reader looks first: beside the answer. */
    private static void successExample(String route, ApiResponse answer) {
        if (answer.getContent() == null) {
            return;
        }
        MediaType json = answer.getContent().get("application/json");
        if (json == null || json.getExample() != null || json.getSchema() == null) {
            return;
        }
        Object example = BY_ROUTE.containsKey(route) ? parse(BY_ROUTE.get(route)) : exampleOf(json.getSchema());
        if (example == null) {
            throw new IllegalStateException(route + " answers a JSON body with no example");
        }
        json.example(example);
    }

    private static Object exampleOf(Schema<?> schema) {
        if (schema.get$ref() != null) {
            String json = EXAMPLES.get(schema.get$ref().substring(SCHEMAS.length()));
            return json == null ? null : parse(json);
        }
        if (schema.getItems() != null) {
            Object item = exampleOf(schema.getItems());
            return item == null ? null : List.of(item);
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parse(String json) {
        try {
            return JSON.readValue(json, LinkedHashMap.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an example of the API document is not JSON", e);
        }
    }
}
