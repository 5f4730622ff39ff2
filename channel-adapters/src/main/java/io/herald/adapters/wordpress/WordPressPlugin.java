package io.herald.adapters.wordpress;

import static io.herald.adapters.port.ConnectionForms.changed;
import static io.herald.adapters.port.ConnectionForms.firstNonNull;
import static io.herald.adapters.port.ConnectionForms.stripTrailingSlash;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.port.FormField;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ConnectionForms;
import io.herald.adapters.port.PluginParts;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;

/**
 * WordPress sites: a site URL a workspace admin types in (so it passes the outbound checks), a user
 * and an application password. Posts keep their images on update.
 */
public final class WordPressPlugin extends PluginParts {

    public static final ChannelType TYPE = ChannelType.of("wordpress");

    /** The fields of a WordPress connection request. */
    record Form(@FormField(label = "Site URL", required = true, placeholder = "https://blog.example")
                @Pattern(regexp = "https?://[^\\s]{1,2000}", message = "must be an http(s) URL") String siteUrl,
                @FormField(label = "User name", required = true) @Size(min = 1, max = 120) String username,
                @FormField(label = "Application password", required = true) @Size(max = 200)
                String applicationPassword) {
    }

    public WordPressPlugin(WordPressAdapter adapter) {
        super(TYPE, adapter, WordPressSettings.class, WordPressSecrets.class, Form.class);
    }

    /** The site URL, user and an application password made on the site's own profile page. */
    @Override
    public ConnectFlow connectFlow() {
        return new ConnectFlow.Form("{siteUrl}/wp-admin/profile.php#application-passwords-section");
    }

    @Override
    public String label() {
        return "WordPress";
    }

    @Override
    public Connection connect(ObjectNode fields, Connection stored) {
        Form form = ConnectionForms.read(fields, Form.class, TYPE);
        WordPressSettings was = stored == null ? null : (WordPressSettings) stored.settings();
        WordPressSecrets kept = stored == null ? new WordPressSecrets(null) : (WordPressSecrets) stored.secrets();
        String siteUrl = stripTrailingSlash(form.siteUrl());
        boolean repointed = was != null && (changed(was.siteUrl(), siteUrl) || changed(was.username(), form.username()));
        ConnectionForms.requireSecretAgain(repointed, form.applicationPassword(), "applicationPassword",
                "siteUrl or username");
        WordPressSecrets secrets = new WordPressSecrets(
                firstNonNull(form.applicationPassword(), kept.applicationPassword()));
        ConnectionForms.required().field(form.siteUrl(), "siteUrl").field(form.username(), "username")
                .field(secrets.applicationPassword(), "applicationPassword").check();
        return new Connection(new WordPressSettings(siteUrl, form.username()), secrets);
    }

    @Override
    public Map<String, String> destinations(ChannelSettings settings) {
        return Map.of("siteUrl", ((WordPressSettings) settings).siteUrl());
    }

    /** Drafts as well as posts, with their images; a WordPress post takes no first comment through Herald. */
    @Override
    public List<PublicationStep> stepKinds(PublicationAction action) {
        return action.createsPost() ? List.of(PublicationStep.UPLOAD_MEDIA, PublicationStep.CREATE_POST)
                : super.stepKinds(action);
    }
}
