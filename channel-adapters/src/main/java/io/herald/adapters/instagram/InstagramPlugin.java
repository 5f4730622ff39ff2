package io.herald.adapters.instagram;

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
import io.herald.adapters.port.TokenRefresh;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.StepClass;
import io.herald.contracts.publication.StepRole;
import io.herald.contracts.publication.StepScope;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Instagram professional accounts: the account's user id and a long-lived access token (whose expiry
 * Herald keeps, to refresh it before it lapses). A post is a container ({@link #CREATE_CONTAINER},
 * once per post, repeatable: an unpublished container is invisible and expires after 24 hours) and
 * its publication ({@link #PUBLISH_CONTAINER}, once only, settled through the container's status
 * after an unknown outcome: exact, so the retry safety is {@code read_back}). Instagram fetches the
 * images itself, so a connection needs Herald's public address ({@code herald.public-base-url}).
 */
public final class InstagramPlugin extends PluginParts {

    public static final ChannelType TYPE = ChannelType.of("instagram");

    public static final PublicationStep CREATE_CONTAINER = PublicationStep.declare("create_container",
            StepClass.REPEATABLE, false, StepRole.PREPARES_POST, StepScope.PER_POST, "create container");
    public static final PublicationStep PUBLISH_CONTAINER = PublicationStep.declare("publish_container",
            StepClass.ONCE_ONLY, true, StepRole.MAKES_POST, "publish container");

    /** The fields of an Instagram connection request. */
    record Form(@FormField(label = "Instagram user id", required = true)
                @Pattern(regexp = "[0-9]{1,32}", message = "must be the account's numeric Instagram user id")
                String igUserId,
                @FormField(label = "Access token", required = true) @Size(max = 4096) String accessToken) {
    }

    private final Supplier<PublicMediaLinks> links;
    private final ConnectFlow login;

    /**
     * @param links Herald's public media addresses, looked up when a connection is made (null: none)
     * @param login how an admin connects an account ({@link #login})
     */
    public InstagramPlugin(InstagramAdapter adapter, Supplier<PublicMediaLinks> links, ConnectFlow login) {
        super(TYPE, adapter, InstagramSettings.class, InstagramSecrets.class, Form.class);
        this.links = links;
        this.login = login;
    }

    /** Instagram Login for a professional account, its long-lived token kept with its expiry ({@link InstagramLogin}). */
    public static ConnectFlow login(ProviderHttp http, String authorizeBaseUrl, String tokenBaseUrl,
                                    String graphBaseUrl, String appId, String appSecret) {
        return new InstagramLogin(new OAuthCalls(http, InstagramLogin::reason), authorizeBaseUrl, tokenBaseUrl,
                graphBaseUrl, appId, appSecret, http.clock());
    }

    @Override
    public ConnectFlow connectFlow() {
        return login;
    }

    @Override
    public String icon() {
        return "ig";
    }

    @Override
    public Connection connect(ObjectNode fields, Connection stored) {
        Form form = ConnectionForms.read(fields, Form.class, TYPE);
        PublicMediaLinks publicLinks = links.get();
        if (publicLinks == null || !publicLinks.available()) {
            FieldViolation why = new FieldViolation("type", "instagram fetches the images from Herald's public"
                    + " address, and none is configured: set herald.public-base-url to an address the internet"
                    + " reaches");
            throw HeraldRejection.invalid(List.of(why));
        }
        InstagramSettings was = stored == null ? null : (InstagramSettings) stored.settings();
        InstagramSecrets kept = stored == null ? new InstagramSecrets(null, null) : (InstagramSecrets) stored.secrets();
        String igUserId = firstNonNull(form.igUserId(), was != null ? was.igUserId() : null);
        boolean repointed = was != null && changed(was.igUserId(), igUserId);
        ConnectionForms.requireSecretAgain(repointed, form.accessToken(), "accessToken", "igUserId");
        // a new token's expiry is the request's accessTokenExpiresAt (the connection's); a refresh keeps it here too
        InstagramSecrets secrets = form.accessToken() != null ? new InstagramSecrets(form.accessToken(), null)
                : new InstagramSecrets(kept.accessToken(), kept.accessTokenExpiresAt());
        ConnectionForms.required().field(igUserId, "igUserId").field(secrets.accessToken(), "accessToken").check();
        return new Connection(new InstagramSettings(igUserId), secrets);
    }

    /** A publish only: a container, its publication, and the first comment. */
    @Override
    public List<PublicationStep> stepKinds(PublicationAction action) {
        return action == PublicationAction.PUBLISH
                ? List.of(CREATE_CONTAINER, PUBLISH_CONTAINER, PublicationStep.FIRST_COMMENT) : List.of();
    }

    /** Exact through the container's own status, with the publishing token. */
    @Override
    public RetrySafety retrySafety(Capability reconcile) {
        return RetrySafety.READ_BACK;
    }

    @Override
    public Optional<TokenRefresh> tokenRefresh() {
        return Optional.of(((InstagramAdapter) adapter()).tokens());
    }

    /** Instagram takes JPEG only. */
    @Override
    public Set<String> imageTypes() {
        return Set.of("image/jpeg");
    }
}
