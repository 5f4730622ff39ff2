package io.herald.command.channel;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ConnectField;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ConnectionForms;
import io.herald.adapters.port.OAuthFlow;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;

/**
 * Connecting a channel through its provider (docs/api.md#connecting-through-the-provider): each
 * channel plug-in says how its channels connect ({@link ChannelPlugin#connectFlow()}); this runs
 * the OAuth ones — start with a signed, single-use, expiring state and a PKCE verifier, take the
 * provider's callback, exchange the code, hold the choices when there are several — and stores the
 * result exactly as a {@code PUT} of the same fields would, probe included.
 */
@Service
@EnableConfigurationProperties(ConnectProperties.class)
public class ChannelConnectFlows {

    private static final Logger log = LoggerFactory.getLogger(ChannelConnectFlows.class);
    /** How long a start or an exchange waits for the provider. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final ChannelPlugins plugins;
    private final OAuthStates states;
    private final OAuthAppStore apps;
    private final ConnectProperties properties;
    private final ChannelConnectionController connections;
    private final ChannelConnectionStore store;
    private final Clock clock;

    public ChannelConnectFlows(ChannelPlugins plugins, OAuthStates states, OAuthAppStore apps,
                               ConnectProperties properties, ChannelConnectionController connections,
                               ChannelConnectionStore store, Clock clock) {
        this.plugins = plugins;
        this.states = states;
        this.apps = apps;
        this.properties = properties;
        this.connections = connections;
        this.store = store;
        this.clock = clock;
        plugins.all().values().forEach(plugin -> log.info("channel type {}: {}", plugin.type().wireName(),
                availability(plugin)));
    }

    /** The answer to a connect: where the admin's browser goes, and until when the state holds. */
    @Schema(name = "ConnectStart")
    public record Started(URI authorizeUrl, Instant expiresAt) {
    }

    /** One connection the grant allows, as the console shows it (no secret). */
    @Schema(name = "ConnectChoice")
    public record ChoiceView(String id, String name, String kind) {
    }

    /**
     * The end of a callback or choice: the stored connection (as a {@code PUT} answers it), or the
     * choices to pick from with the state that picks.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ConnectResult")
    public record ConnectResult(String workspace, String channelId, String state, ChannelConnectionView connection,
                                List<ChoiceView> choices) {
    }

    /** One text field a connect asks for, as the channel's plug-in declares it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ChannelTypeField", description = "A text field a connect asks for")
    public record FieldView(
            @Schema(description = "the request field's name") String name,
            @Schema(description = "what a person reads beside it") String label,
            @Schema(description = "a secret: stored encrypted and never shown again") boolean secret,
            @Schema(description = "a new connection (or the start of a connect) needs it") boolean required,
            @Schema(description = "an example to show in the empty field") String placeholder) {
    }

    /**
     * A registered channel type and how a workspace admin connects one: through the provider
     * ({@code oauth}, when this server has the provider's app configured) with the fields its start
     * takes, or with the {@code PUT} of its form's fields.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ChannelTypeView", description = "A registered channel type and how it connects here")
    public record ChannelTypeView(
            @Schema(description = "the channel type's wire name, as a connection's type") String type,
            @Schema(description = "the type as a person reads it") String label,
            @Schema(description = "one to three characters that stand for the type") String icon,
            @Schema(description = "oauth: through the provider's consent (POST …/connect); form: the PUT of the"
                    + " fields", allowableValues = {"oauth", "form"}) String connect,
            @Schema(description = "whether a connect of this type can run on this server (always for a form)")
            boolean available,
            @Schema(description = "why not, naming the configuration keys the operator has not set")
            String unavailableReason,
            @Schema(description = "the fields the start of a connect through the provider takes besides type")
            List<FieldView> startFields,
            @Schema(description = "the text fields of the PUT that connects a channel of this type")
            List<FieldView> fields,
            @Schema(description = "where the form's secret is made; {field} stands for that field's value")
            String secretGuide) {
    }

    /** Every registered channel type, in name order, and how it connects here. */
    public List<ChannelTypeView> types() {
        return plugins.all().values().stream().map(this::typeView).toList();
    }

    private ChannelTypeView typeView(ChannelPlugin plugin) {
        List<FieldView> fields = views(ConnectionForms.fields(plugin.connectionForm(), plugin.secretsType()));
        if (plugin.connectFlow() instanceof OAuthFlow oauth) {
            List<String> missing = missing(oauth);
            return new ChannelTypeView(plugin.type().wireName(), plugin.label(), plugin.icon(), "oauth",
                    missing.isEmpty(), missing.isEmpty() ? null : unconfigured(plugin, missing),
                    views(ConnectionForms.fields(oauth.startForm(), null)), fields, null);
        }
        ConnectFlow.Form form = (ConnectFlow.Form) plugin.connectFlow();
        return new ChannelTypeView(plugin.type().wireName(), plugin.label(), plugin.icon(), "form", true, null,
                List.of(), fields, form.secretGuide());
    }

    private static List<FieldView> views(List<ConnectField> fields) {
        return fields.stream().map(f -> new FieldView(f.name(), f.label(), f.secret(), f.required(), f.placeholder()))
                .toList();
    }

    private static String unconfigured(ChannelPlugin plugin, List<String> missing) {
        return plugin.type().wireName() + " cannot be connected through the provider here: the operator has not set "
                + String.join(", ", missing);
    }

    /** How a channel type connects here, for the start-up line. */
    String availability(ChannelPlugin plugin) {
        if (!(plugin.connectFlow() instanceof OAuthFlow oauth)) {
            return "connects with its form (PUT)";
        }
        List<String> missing = missing(oauth);
        return missing.isEmpty() ? "connect through the provider available"
                : "connect through the provider unavailable: set " + String.join(", ", missing);
    }

    private List<String> missing(OAuthFlow oauth) {
        List<String> missing = new ArrayList<>(oauth.missingConfiguration());
        if (!properties.hasPublicBaseUrl()) {
            missing.add("herald.public-base-url");
        }
        return missing;
    }

    public Started start(WorkspaceId workspace, ChannelId channel, ObjectNode body, String actor) {
        ObjectNode fields = body.deepCopy();
        JsonNode typeField = fields.remove("type");
        ChannelPlugin plugin = (typeField != null && typeField.isTextual() ? plugins.find(typeField.asText())
                : java.util.Optional.<ChannelPlugin>empty()).orElseThrow(() -> HeraldRejection.invalid(List.of(
                new FieldViolation("type", "must be " + plugins.typeList()))));
        if (!(plugin.connectFlow() instanceof OAuthFlow oauth)) {
            throw HeraldRejection.invalid(List.of(new FieldViolation("type", plugin.type().wireName()
                    + " connects with the PUT of its fields, not through the provider")));
        }
        List<String> missing = missing(oauth);
        if (!missing.isEmpty()) {
            throw new HeraldRejection(ErrorCode.OAUTH_NOT_CONFIGURED, unconfigured(plugin, missing));
        }
        store.typeOf(workspace, channel).filter(t -> !t.equals(plugin.type())).ifPresent(t -> {
            throw new HeraldRejection(ErrorCode.CHANNEL_TYPE_CHANGED, "channel " + channel + " is a " + t.wireName()
                    + " connection; use a new channel id for a " + plugin.type().wireName() + " connection");
        });
        String type = plugin.type().wireName();
        String verifier = states.newVerifier();
        OAuthStates.Issued issued = states.issue(workspace.value(), channel.value(), type, actor);
        OAuthFlow.Authorization authorization = await(oauth.authorize(new OAuthFlow.Start(workspace.value(), fields,
                properties.callback(type), issued.state(), OAuthStates.challenge(verifier)), apps));
        Duration ttl = properties.channels().connectTtl();
        states.store(issued, workspace.value(), channel.value(), type, actor, verifier, authorization.carried(), ttl);
        log.info("connect of channel {} of workspace {} through {} started by {}", channel, workspace, type, actor);
        return new Started(authorization.authorizeUrl(), clock.instant().plus(ttl));
    }

    /**
     * The provider's return: with a code, exchanged; with {@code error} (the user declined, or the
     * provider refused), nothing is stored. The state is used either way.
     */
    public ConnectResult callback(String type, String code, String state, String error, String errorDescription) {
        OAuthStates.Pending pending = states.takeForExchange(state, type);
        OAuthFlow oauth = (OAuthFlow) plugins.find(type).orElseThrow(OAuthStates::invalid).connectFlow();
        if (error != null) {
            states.done(pending.id());
            throw new HeraldRejection(ErrorCode.OAUTH_FAILED, oauth.declined(error)
                    ? "the user declined to connect the channel"
                    : "the provider refused: " + printable(error)
                    + (errorDescription == null ? "" : " (" + printable(errorDescription) + ")"));
        }
        if (code == null || code.isBlank()) {
            states.done(pending.id());
            throw new HeraldRejection(ErrorCode.OAUTH_FAILED, "the provider sent no code");
        }
        List<OAuthFlow.Choice> choices;
        try {
            choices = await(oauth.exchange(new OAuthFlow.Callback(pending.workspace(), code, pending.codeVerifier(),
                    properties.callback(type), pending.carried()), apps));
        } catch (RuntimeException e) {
            states.done(pending.id());
            throw e;
        }
        if (choices.size() == 1) {
            states.done(pending.id());
            return complete(pending.workspace(), pending.channel(), pending.actor(), choices.get(0));
        }
        states.awaitChoice(pending.id(), choices);
        return new ConnectResult(pending.workspace(), pending.channel(), state, null,
                choices.stream().map(c -> new ChoiceView(c.id(), c.name(), c.kind())).toList());
    }

    /**
     * The workspace and channel a correctly signed state was started for, used or not: where the
     * admin's browser goes back to when the provider's return is refused. Empty for a forged state.
     */
    public java.util.Optional<ConnectResult> startedFor(String state) {
        return states.find(state).map(p -> new ConnectResult(p.workspace(), p.channel(), null, null, null));
    }

    /** The admin's pick among the choices a callback listed. */
    public ConnectResult choose(WorkspaceId workspace, ChannelId channel, String state, String choiceId, String actor) {
        if (choiceId == null || choiceId.isBlank()) {
            throw HeraldRejection.invalid(List.of(new FieldViolation("id", "must not be blank")));
        }
        OAuthFlow.Choice chosen = states.takeChoice(state, workspace.value(), channel.value(), actor, choiceId);
        return complete(workspace.value(), channel.value(), actor, chosen);
    }

    private ConnectResult complete(String workspace, String channel, String actor, OAuthFlow.Choice choice) {
        WorkspaceId ws = new WorkspaceId(workspace);
        ChannelId ch = new ChannelId(channel);
        ObjectNode body = choice.connection().deepCopy();
        // a reconnect keeps what the admin chose for the connection; only its credentials are new
        store.load(ws, ch).ifPresent(stored -> body.put(ChannelConnectionRequest.AUTO_REATTEMPT,
                stored.autoReattemptAfterNotFound()));
        ChannelConnectionController.Connected connected = connections.connect(ws, ch, ChannelConnectionRequest.of(body),
                actor);
        log.info("channel {} of workspace {} connected through {} as {} {}", channel, workspace,
                connected.view().type().wireName(), choice.kind(), choice.id());
        return new ConnectResult(workspace, channel, null, connected.view(), null);
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                    ? c.getCause() : e.getCause();
            if (cause instanceof HeraldRejection rejection) {
                throw rejection;
            }
            throw new HeraldRejection(ErrorCode.OAUTH_FAILED, "the provider's answer could not be used");
        } catch (TimeoutException e) {
            throw new HeraldRejection(ErrorCode.OAUTH_FAILED, "the provider did not answer in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HeraldRejection(ErrorCode.UNAVAILABLE, "interrupted");
        }
    }

    /** A provider's error word, kept to letters, digits and a little punctuation. */
    private static String printable(String text) {
        String kept = text.replaceAll("[^A-Za-z0-9 _.,:'()-]", "");
        return kept.length() > 200 ? kept.substring(0, 200) : kept;
    }
}
