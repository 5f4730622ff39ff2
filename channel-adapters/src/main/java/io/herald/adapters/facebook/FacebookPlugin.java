package io.herald.adapters.facebook;

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
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Facebook Pages: a Page id and its Page access token, optionally a separate token for reading back. */
public final class FacebookPlugin extends PluginParts {

    public static final ChannelType TYPE = ChannelType.of("facebook");

    /** The fields of a Facebook connection request. */
    record Form(@FormField(label = "Page id", required = true)
                @Pattern(regexp = "[0-9A-Za-z_.-]{1,64}", message = "must be a Page id") String pageId,
                @FormField(label = "Page access token", required = true) @Size(max = 4096) String pageAccessToken,
                @FormField(label = "Token that reads the Page's posts") @Size(max = 4096) String readAccessToken) {
    }

    private final ConnectFlow login;
    private final ApiVersions versions;
    private final List<Quota> quotas;

    public FacebookPlugin(FacebookAdapter adapter, ConnectFlow login) {
        this(adapter, login, null);
    }

    /** @param budget the calls a connection may make per window ({@link FacebookProperties#budget()}); null: none */
    public FacebookPlugin(FacebookAdapter adapter, ConnectFlow login, Quota budget) {
        super(TYPE, adapter, FacebookSettings.class, FacebookSecrets.class, Form.class);
        this.login = login;
        this.versions = FacebookVersions.configured(adapter.graphBase());
        this.quotas = budget == null ? List.of() : List.of(budget);
    }

    /**
     * The Graph API's calls per window; the answers' {@code X-App-Usage} and
     * {@code X-Business-Use-Case-Usage} ({@link FacebookUsage}) say how much of it is used.
     */
    @Override
    public List<Quota> quotas() {
        return quotas;
    }

    /** Facebook Login with a Page chosen among the user's ({@link FacebookLogin}). */
    public static ConnectFlow login(ProviderHttp http, String dialogBaseUrl, String graphBaseUrl, String appId,
                                    String appSecret) {
        return new FacebookLogin(new OAuthCalls(http, FacebookLogin::reason), dialogBaseUrl, graphBaseUrl,
                appId, appSecret);
    }

    @Override
    public ConnectFlow connectFlow() {
        return login;
    }

    @Override
    public Optional<ApiVersions> apiVersions() {
        return Optional.of(versions);
    }

    @Override
    public String icon() {
        return "f";
    }

    @Override
    public Connection connect(ObjectNode fields, Connection stored) {
        Form form = ConnectionForms.read(fields, Form.class, TYPE);
        FacebookSettings was = stored == null ? null : (FacebookSettings) stored.settings();
        FacebookSecrets kept = stored == null ? new FacebookSecrets(null, null) : (FacebookSecrets) stored.secrets();
        boolean repointed = was != null && changed(was.pageId(), form.pageId());
        ConnectionForms.requireSecretAgain(repointed, form.pageAccessToken(), "pageAccessToken", "pageId");
        FacebookSecrets secrets = new FacebookSecrets(firstNonNull(form.pageAccessToken(), kept.pageAccessToken()),
                // the read token belongs to the old Page: a new Page reads with its own token unless given one
                repointed ? form.readAccessToken() : firstNonNull(form.readAccessToken(), kept.readAccessToken()));
        ConnectionForms.required().field(form.pageId(), "pageId").field(secrets.pageAccessToken(), "pageAccessToken")
                .check();
        return new Connection(new FacebookSettings(form.pageId(), secrets.readAccessToken() != null), secrets);
    }

    /** Facebook changes only the text of a post. */
    @Override
    public List<FieldViolation> checkUpdateMedia(Supplier<Optional<List<ContentMedia>>> published,
                                                 List<ContentMedia> requested) {
        return TextOnlyEdits.check("Facebook", published, requested);
    }
}
