package io.herald.adapters.bluesky;

import static io.herald.adapters.port.ConnectionForms.changed;
import static io.herald.adapters.port.ConnectionForms.firstNonNull;
import static io.herald.adapters.port.ConnectionForms.stripTrailingSlash;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.FormField;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ConnectionForms;
import io.herald.adapters.port.PluginParts;
import io.herald.adapters.port.Quota;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Bluesky accounts: a handle and an app password, on {@code bsky.social} unless the admin names
 * another PDS (which then passes the outbound checks, as a WordPress site does). Herald makes and
 * refreshes the session itself. Posts are written under a record key Herald chooses, so a repeat
 * cannot create a second post.
 */
public final class BlueskyPlugin extends PluginParts {

    public static final ChannelType TYPE = ChannelType.of("bluesky");
    public static final String DEFAULT_PDS = "https://bsky.social";

    /** The fields of a Bluesky connection request. */
    record Form(@FormField(label = "Handle", required = true, placeholder = "alice.bsky.social")
                @Pattern(regexp = "(did:[a-z]+:[A-Za-z0-9._:%-]{1,2000})|([A-Za-z0-9][A-Za-z0-9.-]{0,252})",
                        message = "must be a handle such as alice.bsky.social, or a DID") String handle,
                @FormField(label = "App password", required = true) @Size(min = 1, max = 200) String appPassword,
                @FormField(label = "PDS URL", placeholder = DEFAULT_PDS)
                @Pattern(regexp = "https?://[^\\s]{1,2000}", message = "must be an http(s) URL") String pdsUrl) {
    }

    /**
     * An account may spend 5,000 write points an hour and 35,000 a day; a post (a record created)
     * costs 3.
     */
    @Override
    public List<Quota> quotas() {
        return List.of(Quota.documented("hour", 5_000 / 3, Duration.ofHours(1)),
                Quota.documented("day", 35_000 / 3, Duration.ofDays(1)));
    }

    private final BlueskyAdapter bluesky;

    public BlueskyPlugin(BlueskyAdapter adapter) {
        super(TYPE, adapter, BlueskySettings.class, BlueskySecrets.class, Form.class);
        this.bluesky = adapter;
    }

    /** The handle and an app password made in the Bluesky app's settings. */
    @Override
    public ConnectFlow connectFlow() {
        return new ConnectFlow.Form("https://bsky.app/settings/app-passwords");
    }

    @Override
    public String icon() {
        return "bs";
    }

    @Override
    public Connection connect(ObjectNode fields, Connection stored) {
        Form form = ConnectionForms.read(fields, Form.class, TYPE);
        BlueskySettings was = stored == null ? null : (BlueskySettings) stored.settings();
        BlueskySecrets kept = stored == null ? new BlueskySecrets(null) : (BlueskySecrets) stored.secrets();
        String handle = form.handle();
        String pdsUrl = firstNonNull(stripTrailingSlash(form.pdsUrl()), was != null ? was.pdsUrl() : DEFAULT_PDS);
        boolean repointed = was != null && (changed(was.handle(), handle) || changed(was.pdsUrl(), pdsUrl));
        ConnectionForms.requireSecretAgain(repointed, form.appPassword(), "appPassword", "handle or pdsUrl");
        BlueskySecrets secrets = new BlueskySecrets(firstNonNull(form.appPassword(), kept.appPassword()));
        ConnectionForms.required().field(handle, "handle").field(secrets.appPassword(), "appPassword").check();
        return new Connection(new BlueskySettings(handle, pdsUrl), secrets);
    }

    /**
     * The handle must resolve on the PDS (400 {@code validation_failed} naming {@code handle}
     * otherwise) and the app password must make a session ({@code appPassword} otherwise); a PDS
     * that cannot be asked is {@code unavailable}. Nothing is stored unless both hold.
     */
    @Override
    public CompletableFuture<Optional<HeraldRejection>> verify(ChannelConnection candidate) {
        return bluesky.verify(candidate);
    }

    @Override
    public Map<String, String> destinations(ChannelSettings settings) {
        return Map.of("pdsUrl", ((BlueskySettings) settings).pdsUrl());
    }

    /** Herald chooses the record key: a repeat of a create is the same record, never a second post. */
    @Override
    public RetrySafety retrySafety(Capability reconcile) {
        return RetrySafety.CLIENT_ID;
    }

    /** The record key is Herald's for good: a re-send writes the same bytes under it at any time. */
    @Override
    public Duration resendWindow() {
        return ChronoUnit.FOREVER.getDuration();
    }

    /** A Bluesky post cannot be edited: no update. */
    @Override
    public List<PublicationStep> stepKinds(PublicationAction action) {
        return action == PublicationAction.UPDATE ? List.of() : super.stepKinds(action);
    }
}
