package io.herald.adapters.linkedin;

import static io.herald.adapters.port.ConnectionForms.changed;
import static io.herald.adapters.port.ConnectionForms.firstNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.oauth.OAuthCalls;
import io.herald.adapters.port.FormField;
import io.herald.adapters.port.ApiVersions;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ConnectionForms;
import io.herald.adapters.port.PluginParts;
import io.herald.adapters.port.Quota;
import io.herald.adapters.port.TextOnlyEdits;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.ContentMedia;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** LinkedIn members and organizations: an author URN and an OAuth token with its scopes. */
public final class LinkedInPlugin extends PluginParts {

    public static final ChannelType TYPE = ChannelType.of("linkedin");

    /** The fields of a LinkedIn connection request. */
    record Form(@FormField(label = "Author URN", required = true, placeholder = "urn:li:organization:1234")
                @Pattern(regexp = "urn:li:(person|organization):[A-Za-z0-9_-]{1,64}",
                         message = "must be urn:li:person:… or urn:li:organization:…") String authorUrn,
                @FormField(label = "Access token", required = true) @Size(max = 4096) String accessToken,
                @Size(max = 20) List<@Pattern(regexp = "[a-z_]{1,64}", message = "must be a scope name") String> scopes) {
    }

    static final int MEMBER_POSTS_PER_DAY = 150;

    private final ConnectFlow login;
    private final ApiVersions versions;

    public LinkedInPlugin(LinkedInAdapter adapter, ConnectFlow login) {
        super(TYPE, adapter, LinkedInSettings.class, LinkedInSecrets.class, Form.class);
        this.login = login;
        this.versions = LinkedInVersions.configured(adapter.version());
    }

    /** Sign In with LinkedIn, the member or one of the organizations they administer chosen ({@link LinkedInLogin}). */
    public static ConnectFlow login(ProviderHttp http, String authorizationBaseUrl, String apiBaseUrl, String version,
                                    String clientId, String clientSecret, String scopes) {
        return new LinkedInLogin(new OAuthCalls(http, LinkedInLogin::reason), authorizationBaseUrl, apiBaseUrl,
                version, clientId, clientSecret, scopes, http.clock());
    }

    @Override
    public ConnectFlow connectFlow() {
        return login;
    }

    /** LinkedIn lets a member post about 150 times a day; the day ends at midnight UTC. */
    @Override
    public List<Quota> quotas() {
        return List.of(Quota.documented("day", MEMBER_POSTS_PER_DAY, Duration.ofDays(1)));
    }

    @Override
    public Optional<ApiVersions> apiVersions() {
        return Optional.of(versions);
    }

    @Override
    public String label() {
        return "LinkedIn";
    }

    @Override
    public String icon() {
        return "in";
    }

    @Override
    public Connection connect(ObjectNode fields, Connection stored) {
        Form form = ConnectionForms.read(fields, Form.class, TYPE);
        LinkedInSettings was = stored == null ? null : (LinkedInSettings) stored.settings();
        LinkedInSecrets kept = stored == null ? new LinkedInSecrets(null) : (LinkedInSecrets) stored.secrets();
        boolean repointed = was != null && changed(was.authorUrn(), form.authorUrn());
        ConnectionForms.requireSecretAgain(repointed, form.accessToken(), "accessToken", "authorUrn");
        LinkedInSecrets secrets = new LinkedInSecrets(firstNonNull(form.accessToken(), kept.accessToken()));
        ConnectionForms.required().field(form.authorUrn(), "authorUrn").field(secrets.accessToken(), "accessToken")
                .check();
        return new Connection(new LinkedInSettings(form.authorUrn(), form.scopes()), secrets);
    }

    /** LinkedIn changes only the text of a post. */
    @Override
    public List<FieldViolation> checkUpdateMedia(Supplier<Optional<List<ContentMedia>>> published,
                                                 List<ContentMedia> requested) {
        return TextOnlyEdits.check("LinkedIn", published, requested);
    }
}
