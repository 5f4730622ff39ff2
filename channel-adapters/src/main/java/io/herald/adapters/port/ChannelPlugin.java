package io.herald.adapters.port;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One channel type, whole: everything that differs between providers lives behind this interface,
 * in the provider's own package — its settings and secrets records, how a connection request is
 * read and checked, the adapter (write steps, read-back, probe, content limits), the addresses
 * Herald will call for it, and its rules for changing a published post. The command side, the query
 * side and the API know channel types only through {@link ChannelPlugins}.
 */
public interface ChannelPlugin {

    ChannelType type();

    /** The channel type as a person reads it ("LinkedIn"); by default its wire name, capitalised. */
    default String label() {
        String name = type().wireName();
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /** One to three characters that stand for the type where there is little room; by default its label's first. */
    default String icon() {
        return label().substring(0, 1);
    }

    ChannelAdapter adapter();

    /** This channel's settings record, stored and carried in events with {@link #type()} as its tag. */
    Class<? extends ChannelSettings> settingsType();

    /** This channel's secrets record, stored encrypted as its JSON. */
    Class<? extends ChannelSecrets> secretsType();

    /** The record a connection request's own fields are read into: the API document shows its fields. */
    Class<?> connectionForm();

    /**
     * The connection a {@code PUT} describes: {@code fields} are the request's own fields for this
     * channel type (the common ones taken out), {@code stored} the connection as stored, or null
     * when it is new. Secrets left out keep their stored value unless the request points the
     * connection somewhere new: a stored secret never goes to a new destination.
     *
     * @throws HeraldRejection {@code validation_failed} naming each field that is missing, wrong or
     *                         not one of this channel type's
     */
    Connection connect(ObjectNode fields, Connection stored);

    /**
     * The addresses a workspace admin typed in that Herald will call for this connection (a
     * WordPress site, a Mastodon instance): each must pass the outbound checks. Providers at fixed,
     * configured addresses have none. By the request field that names each.
     */
    default Map<String, String> destinations(ChannelSettings settings) {
        return Map.of();
    }

    /**
     * Checks with the provider, before anything is stored, that a connection a {@code PUT} describes
     * (new, or with changed settings or secrets) names an account that exists and credentials it
     * accepts: a Bluesky handle that resolves, an app password that makes a session. Called after
     * {@link #destinations} passed the outbound checks. Completes with the refusal to answer instead
     * of storing: {@code validation_failed} naming the field and the channel type when the provider
     * refused what the admin typed, {@code unavailable} when the provider could not be asked (nothing
     * is stored either way). Called while no database transaction is open and no row is locked,
     * one at a time per workspace. By default there is nothing to check.
     */
    default CompletableFuture<Optional<HeraldRejection>> verify(ChannelConnection candidate) {
        return CompletableFuture.completedFuture(Optional.empty());
    }

    /**
     * The problems of an {@code update} that names images ({@code requested}): a provider that
     * changes only a post's text refuses other images than the published post's. {@code published}
     * reads those from the store (empty when the entry has no post), so a channel without the rule
     * costs no read.
     */
    default List<FieldViolation> checkUpdateMedia(Supplier<Optional<List<ContentMedia>>> published,
                                                  List<ContentMedia> requested) {
        return List.of();
    }

    /**
     * How an unknown outcome of a create on a connection of this type can be settled, given what
     * its credentials allow (its read-back capability): shown per connection. A channel whose
     * provider cannot tell a repeat from a new post reads back where it can.
     */
    default RetrySafety retrySafety(Capability reconcile) {
        return RetrySafety.byReadBack(reconcile);
    }

    /**
     * How long after an attempt was sent an unknown create may be sent again with the same
     * record id or idempotency key, without reading back first; zero: never.
     */
    default Duration resendWindow() {
        return Duration.ZERO;
    }

    /**
     * How a workspace admin connects a channel of this type: the {@code PUT} form (the default), or
     * the provider's OAuth consent ({@link OAuthFlow}), whose result is read by {@link #connect} as a
     * {@code PUT} of the same fields would be.
     */
    default ConnectFlow connectFlow() {
        return new ConnectFlow.Form(null);
    }

    /**
     * The step kinds this channel carries out for {@code action}: empty when it cannot do the action
     * at all. A plug-in with steps of its own (a container to create, then publish) lists them here,
     * declared with {@link PublicationStep#declare} as constants of its package: one step before
     * the post per image, one post step and one step after it (for a first comment), taken in that
     * role ({@link PublicationStep#plan}). By default the core kinds
     * ({@link PublicationStep#coreKinds}: a publish uploads images, creates the post and writes its
     * first comment; an update uploads and edits; a delete deletes), and no drafts.
     */
    default List<PublicationStep> stepKinds(PublicationAction action) {
        return action == PublicationAction.DRAFT ? List.of() : PublicationStep.coreKinds(action);
    }

    /**
     * Why this channel cannot carry out the request at all, naming the request field and the
     * channel type: the action (its adapter's reason, or no step kinds for it), or a step the
     * request plans that the channel does not support (a first comment on WordPress). Empty when it
     * can; intake refuses otherwise with {@code action_not_supported}, before any other check.
     */
    default Optional<FieldViolation> unsupported(PublicationAction action, Content content) {
        String type = type().wireName();
        Optional<String> whole = adapter().unsupported(action);
        List<PublicationStep> supported = stepKinds(action);
        if (whole.isEmpty() && supported.isEmpty()) {
            whole = Optional.of(action.wireName() + " is not supported on " + type + " channels");
        }
        if (whole.isPresent()) {
            return Optional.of(new FieldViolation("action", whole.get()));
        }
        return PublicationStep.plan(action, content, supported).stream()
                .filter(step -> !supported.contains(step.kind()))
                .findFirst()
                .map(step -> new FieldViolation(step.field(), "a " + step.kind().label() + " is not supported on "
                        + type + " channels for " + action.wireName()));
    }

    /**
     * The provider API versions this channel speaks and the one it is configured to send; empty for a
     * channel whose provider has no versions to retire.
     */
    default Optional<ApiVersions> apiVersions() {
        return Optional.empty();
    }

    /**
     * The provider's documented limits on one connection's calls: Herald starts an attempt only
     * within every one of them (the connection's budget, kept in PostgreSQL for all nodes).
     */
    default List<Quota> quotas() {
        return List.of();
    }

    /**
     * How this channel renews its connections' tokens before they expire; empty for a channel whose
     * tokens do not expire or are not renewed by Herald.
     */
    default Optional<TokenRefresh> tokenRefresh() {
        return Optional.empty();
    }

    /**
     * The image types this channel's provider fetches as uploaded ({@code image/jpeg}); any other
     * image is offered at an address that serves a JPEG made of it
     * ({@link PublicMediaLinks#jpegLinkFor}). Empty: every type as uploaded.
     */
    default java.util.Set<String> imageTypes() {
        return java.util.Set.of();
    }

    /** Settings and secrets of one connection. */
    record Connection(ChannelSettings settings, ChannelSecrets secrets) {

        @Override
        public String toString() {
            return "Connection[" + settings + ", secrets redacted]";
        }
    }
}
