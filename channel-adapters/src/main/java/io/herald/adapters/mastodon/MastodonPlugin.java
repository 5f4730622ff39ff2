package io.herald.adapters.mastodon;

import static io.herald.adapters.port.ConnectionForms.changed;
import static io.herald.adapters.port.ConnectionForms.firstNonNull;
import static io.herald.adapters.port.ConnectionForms.stripTrailingSlash;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.oauth.OAuthCalls;
import io.herald.adapters.port.FormField;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ConnectionForms;
import io.herald.adapters.port.PluginParts;
import io.herald.adapters.port.TextOnlyEdits;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.ContentMedia;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Mastodon accounts: an instance URL a workspace admin types in (so it passes the outbound checks,
 * as a WordPress site does) and an access token. Every create carries an {@code Idempotency-Key}
 * made from the publication and the step, which the instance honours for about an hour: within
 * {@link #resendWindow()} an unknown create may be sent again with it.
 */
public final class MastodonPlugin extends PluginParts {

    public static final ChannelType TYPE = ChannelType.of("mastodon");

    /** The fields of a Mastodon connection request. */
    record Form(@FormField(label = "Instance URL", required = true, placeholder = "https://mastodon.social")
                @Pattern(regexp = "https?://[^\\s]{1,2000}", message = "must be an http(s) URL") String instanceUrl,
                @FormField(label = "Access token", required = true) @Size(min = 1, max = 500) String accessToken,
                @FormField(label = "Account id")
                @Pattern(regexp = "[0-9A-Za-z_-]{1,64}", message = "must be the account's id as the instance shows it")
                String accountId) {
    }

    private final Duration resendWindow;
    private final ConnectFlow login;

    public MastodonPlugin(MastodonAdapter adapter, Duration resendWindow, ConnectFlow login) {
        super(TYPE, adapter, MastodonSettings.class, MastodonSecrets.class, Form.class);
        this.resendWindow = resendWindow;
        this.login = login;
    }

    /** OAuth on the instance the admin names, Herald registering itself there once ({@link MastodonLogin}). */
    public static ConnectFlow login(ProviderHttp guardedHttp) {
        return new MastodonLogin(new OAuthCalls(guardedHttp, MastodonLogin::reason));
    }

    @Override
    public ConnectFlow connectFlow() {
        return login;
    }

    @Override
    public Connection connect(ObjectNode fields, Connection stored) {
        Form form = ConnectionForms.read(fields, Form.class, TYPE);
        MastodonSettings was = stored == null ? null : (MastodonSettings) stored.settings();
        MastodonSecrets kept = stored == null ? new MastodonSecrets(null) : (MastodonSecrets) stored.secrets();
        String instanceUrl = firstNonNull(stripTrailingSlash(form.instanceUrl()), was != null ? was.instanceUrl() : null);
        boolean repointed = was != null && changed(was.instanceUrl(), instanceUrl);
        ConnectionForms.requireSecretAgain(repointed, form.accessToken(), "accessToken", "instanceUrl");
        MastodonSecrets secrets = new MastodonSecrets(firstNonNull(form.accessToken(), kept.accessToken()));
        ConnectionForms.required().field(instanceUrl, "instanceUrl").field(secrets.accessToken(), "accessToken")
                .check();
        // a new token may belong to another account: the stored account id is kept only with the same token
        String accountId = firstNonNull(form.accountId(),
                was != null && form.accessToken() == null && !repointed ? was.accountId() : null);
        return new Connection(new MastodonSettings(instanceUrl, accountId), secrets);
    }

    @Override
    public Map<String, String> destinations(ChannelSettings settings) {
        return Map.of("instanceUrl", ((MastodonSettings) settings).instanceUrl());
    }

    /** The instance deduplicates a create on its {@code Idempotency-Key}; after the window, read back. */
    @Override
    public RetrySafety retrySafety(Capability reconcile) {
        return RetrySafety.PROVIDER_KEY;
    }

    /** {@code herald.channels.mastodon.idempotency-window}: the instance keeps a key for about an hour. */
    @Override
    public Duration resendWindow() {
        return resendWindow;
    }

    /**
     * An edit re-sends the status's own attachments (the request carries no new uploads): an update
     * keeps the published images.
     */
    @Override
    public List<FieldViolation> checkUpdateMedia(Supplier<Optional<List<ContentMedia>>> published,
                                                 List<ContentMedia> requested) {
        return TextOnlyEdits.check("Mastodon", published, requested);
    }
}
