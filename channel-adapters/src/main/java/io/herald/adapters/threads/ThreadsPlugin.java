package io.herald.adapters.threads;

import static io.herald.adapters.port.ConnectionForms.changed;
import static io.herald.adapters.port.ConnectionForms.firstNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.oauth.OAuthCalls;
import io.herald.adapters.port.FormField;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ConnectionForms;
import io.herald.adapters.port.PluginParts;
import io.herald.adapters.port.PublicMediaLinks;
import io.herald.adapters.port.Quota;
import io.herald.adapters.port.TokenRefresh;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.StepClass;
import io.herald.contracts.publication.StepRole;
import io.herald.contracts.publication.StepScope;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Threads profiles: the Threads user id and a long-lived access token. A post is a container
 * ({@link #CREATE_CONTAINER}, repeatable: an unpublished container is invisible and expires) and
 * its publish ({@link #PUBLISH_CONTAINER}, once only, settled by the container's own status);
 * Threads fetches each image itself from Herald's public address ({@link PublicMediaLinks}), so a
 * connection is refused while Herald has none. No edits; deletes and first comments (a reply).
 */
public final class ThreadsPlugin extends PluginParts {

    public static final ChannelType TYPE = ChannelType.of("threads");

    /** Builds the post as a container from the text and the images' public addresses. */
    public static final PublicationStep CREATE_CONTAINER = PublicationStep.declare("create_container",
            StepClass.REPEATABLE, false, StepRole.PREPARES_POST, StepScope.PER_POST, "create container");
    /** Publishes the container: the post. */
    public static final PublicationStep PUBLISH_CONTAINER = PublicationStep.declare("publish_container",
            StepClass.ONCE_ONLY, true, StepRole.MAKES_POST, "publish container");

    /** The fields of a Threads connection request. */
    record Form(@FormField(label = "Threads user id", required = true)
                @Pattern(regexp = "[0-9]{1,32}", message = "must be the Threads user id (digits), as GET /me names it")
                String threadsUserId,
                @FormField(label = "Access token", required = true) @Size(min = 1, max = 1000) String accessToken) {
    }

    private final Supplier<PublicMediaLinks> links;
    private final List<Quota> quotas;
    private final ConnectFlow login;

    /** {@code links}: Herald's public media addresses, or null when it has none; {@code login}: {@link #login}. */
    public ThreadsPlugin(ThreadsAdapter adapter, Supplier<PublicMediaLinks> links, int quotaCalls,
                         Duration quotaWindow, ConnectFlow login) {
        super(TYPE, adapter, ThreadsSettings.class, ThreadsSecrets.class, Form.class);
        this.links = links;
        this.quotas = List.of(Quota.documented("publishing", quotaCalls, quotaWindow));
        this.login = login;
    }

    /** Threads' OAuth for a profile, its long-lived token kept with its expiry ({@link ThreadsLogin}). */
    public static ConnectFlow login(ProviderHttp http, String authorizeBaseUrl, String baseUrl, String appId,
                                    String appSecret) {
        return new ThreadsLogin(new OAuthCalls(http, ThreadsLogin::reason), authorizeBaseUrl, baseUrl, appId,
                appSecret, http.clock());
    }

    @Override
    public ConnectFlow connectFlow() {
        return login;
    }

    @Override
    public String icon() {
        return "@";
    }

    @Override
    public Connection connect(ObjectNode fields, Connection stored) {
        Form form = ConnectionForms.read(fields, Form.class, TYPE);
        PublicMediaLinks publicLinks = links.get();
        if (publicLinks == null || !publicLinks.available()) {
            throw HeraldRejection.invalid(List.of(new FieldViolation("type", "threads fetches the images from"
                    + " Herald's public address, and none is configured: set herald.public-base-url to an address"
                    + " the internet reaches")));
        }
        ThreadsSettings was = stored == null ? null : (ThreadsSettings) stored.settings();
        ThreadsSecrets kept = stored == null ? new ThreadsSecrets(null, null) : (ThreadsSecrets) stored.secrets();
        String user = firstNonNull(form.threadsUserId(), was != null ? was.threadsUserId() : null);
        boolean repointed = was != null && changed(was.threadsUserId(), user);
        ConnectionForms.requireSecretAgain(repointed, form.accessToken(), "accessToken", "threadsUserId");
        // a new token's expiry is the request's accessTokenExpiresAt (the connection's); a refresh keeps it here too
        ThreadsSecrets secrets = form.accessToken() != null ? new ThreadsSecrets(form.accessToken(), null)
                : new ThreadsSecrets(kept.accessToken(), kept.accessTokenExpiresAt());
        ConnectionForms.required().field(user, "threadsUserId").field(secrets.accessToken(), "accessToken").check();
        return new Connection(new ThreadsSettings(user), secrets);
    }

    /** A publish: the container, its publish, and a first comment (a reply); a delete; no update, no draft. */
    @Override
    public List<PublicationStep> stepKinds(PublicationAction action) {
        return switch (action) {
            case PUBLISH -> List.of(CREATE_CONTAINER, PUBLISH_CONTAINER, PublicationStep.FIRST_COMMENT);
            case DELETE -> PublicationStep.coreKinds(PublicationAction.DELETE);
            default -> List.of();
        };
    }

    /**
     * Threads allows 250 posts and 1,000 replies a profile in 24 hours; Herald counts the attempts
     * it starts on the connection ({@code herald.channels.threads.quota-calls} in each
     * {@code quota-window}), and a limit Threads still answers waits as a rate limit.
     */
    @Override
    public List<Quota> quotas() {
        return quotas;
    }

    @Override
    public Optional<TokenRefresh> tokenRefresh() {
        return Optional.of(((ThreadsAdapter) adapter()).tokens());
    }

    /** Threads takes JPEG and PNG images. */
    @Override
    public Set<String> imageTypes() {
        return ThreadsPublisher.IMAGE_TYPES;
    }
}
