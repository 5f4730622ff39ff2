package io.herald.deploy.http;

import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The channel connection's request and settings schemas, written from the channel plug-ins: the
 * request is one object with a {@code type} and the fields of that type's plug-in, and each field
 * says which channel types take it. A new plug-in's fields appear here without an edit.
 */
final class ChannelSchemas {

    static final String REQUEST = "ChannelConnectionRequest";
    static final String SETTINGS = "ChannelSettings";
    private static final String CHANNEL_PATH = "/api/v1/workspaces/{ws}/channels/{channelId}";

    private ChannelSchemas() {
    }

    static void add(OpenAPI openApi, ChannelPlugins plugins) {
        List<String> types = plugins.types().stream().map(ChannelType::wireName).toList();
        Map<String, Schema> request = new TreeMap<>();
        // a pattern, not an enum: a client generated today still sends the types of later plug-ins
        request.put("type", new StringSchema().pattern("^(" + String.join("|", types) + ")$")
                .description("the channel type"));
        request.put("autoReattemptAfterNotFound", new BooleanSchema()
                .description("re-attempt by itself after a read-back found nothing (default false)"));
        request.put("verifyAfterSuccess", new BooleanSchema()
                .description("read each post again herald.verification.delay after its success, to see it is still"
                        + " there (omitted: a connection keeps its choice, a new one gets herald.verification.enabled)"));
        request.put("accessTokenExpiresAt", new StringSchema().format("date-time")
                .description("the token's expiry, where the provider gave one"));
        Map<String, Schema> settings = new TreeMap<>();
        settings.put("type", new StringSchema()._enum(types).description("the channel type"));
        Map<String, List<String>> requestOwners = new LinkedHashMap<>();
        Map<String, List<String>> settingsOwners = new LinkedHashMap<>();
        for (ChannelPlugin plugin : plugins.all().values()) {
            String type = plugin.type().wireName();
            collect(plugin.connectionForm(), type, request, requestOwners);
            collect(plugin.settingsType(), type, settings, settingsOwners);
        }
        openApi.getComponents().addSchemas(REQUEST, new Schema<>().type("object").properties(request)
                .required(List.of("type"))
                .description("A channel connection: `type` and the fields of that channel type (each field says"
                        + " which types take it); a field of another type is refused. Secrets are stored"
                        + " encrypted and never shown again."));
        openApi.getComponents().addSchemas(SETTINGS, new Schema<>().type("object").properties(settings)
                .description("A connection's settings without its secrets, tagged with the channel type"));
        // the controller reads the body as a JSON object, for the plug-in of its type to read
        PathItem channel = openApi.getPaths().get(CHANNEL_PATH);
        if (channel != null && channel.getPut() != null && channel.getPut().getRequestBody() != null) {
            channel.getPut().getRequestBody().setContent(new Content().addMediaType("application/json",
                    new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + REQUEST))));
        }
        openApi.getComponents().getSchemas().remove("ObjectNode");
        // the views name a channel type by its wire name: the registered ones
        typed(openApi, "ChannelConnectionView", "type", types);
        typed(openApi, "PublicationView", "channelType", types);
    }

    private static void typed(OpenAPI openApi, String schema, String property, List<String> types) {
        Schema<?> view = openApi.getComponents().getSchemas().get(schema);
        if (view != null && view.getProperties() != null && view.getProperties().get(property) != null) {
            view.getProperties().put(property, new StringSchema()._enum(types));
        }
    }

    private static void collect(Class<?> record, String type, Map<String, Schema> into,
                                Map<String, List<String>> owners) {
        Schema<?> resolved = ModelConverters.getInstance()
                .resolveAsResolvedSchema(new AnnotatedType(record).resolveAsRef(false)).schema;
        if (resolved == null || resolved.getProperties() == null) {
            return;
        }
        resolved.getProperties().forEach((name, schema) -> {
            if ("type".equals(name)) {
                return;
            }
            List<String> takenBy = owners.computeIfAbsent(name, n -> new ArrayList<>());
            takenBy.add(type);
            Schema<?> field = into.getOrDefault(name, schema);
            field.description("(" + String.join(", ", takenBy) + ")");
            into.put(name, field);
        });
    }
}
