package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.StepRole;
import io.herald.contracts.publication.StepScope;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The channels the state-machine model lives on, each as its plug-in declares it: the step kinds of
 * each action, whether intake refuses an action or a step, the retry safety with and without read
 * access, and the re-send window. Read from the registry the application builds
 * ({@link ChannelAdaptersConfiguration#create}), so that a plug-in's change reaches the model.
 */
final class ChannelProfiles {

    /** Every plug-in Herald has, with the defaults of their properties. */
    static final ChannelPlugins PLUGINS = ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
            OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());

    private static final Capability READS = Capability.ok();
    private static final Capability NO_READ_SCOPE = Capability.unavailable("no read scope");

    /**
     * One connection profile of a channel type: {@code name} is the type's wire name, with
     * {@code /none} for a connection whose credentials cannot read back.
     */
    record Profile(String name, ChannelPlugin plugin, RetrySafety safety) {

        ChannelType type() {
            return plugin.type();
        }

        /** The connection reads back (its unknowns are settled by reading, or by a same-key re-send). */
        boolean reads() {
            return safety != RetrySafety.NONE;
        }

        List<PublicationStep> kinds(PublicationAction action) {
            return plugin.stepKinds(action);
        }

        /** A connection whose post is a container made, then published (Instagram, Threads). */
        boolean containers() {
            return kinds(PublicationAction.PUBLISH).stream()
                    .anyMatch(k -> k.role() == StepRole.PREPARES_POST && k.scope() == StepScope.PER_POST);
        }

        /** Intake's refusal of this request on this channel ({@code action_not_supported}), or empty. */
        Optional<FieldViolation> unsupported(PublicationAction action, Content content) {
            return plugin.unsupported(action, content);
        }

        boolean supports(PublicationAction action) {
            return unsupported(action, new Content(null, "text", null)).isEmpty();
        }

        /** What the publication's re-send policy takes from this channel: empty for read_back and none. */
        Optional<SameKeyResendPolicy.Licence> resendLicence() {
            return new SameKeyResendPolicy(PLUGINS).licence(type());
        }

        /** How long after the first send a re-send may start (Mastodon: the key's window). */
        Duration resendWindow() {
            return plugin.resendWindow();
        }
    }

    /**
     * Every channel type with credentials that read back, and, where a type's retry safety without
     * read access differs, LinkedIn without its read scope ({@code none}: an unknown waits for an
     * operator).
     */
    static final List<Profile> ALL = profiles();

    private static List<Profile> profiles() {
        List<Profile> profiles = new ArrayList<>();
        for (ChannelType type : PLUGINS.types()) {
            ChannelPlugin plugin = PLUGINS.plugin(type);
            profiles.add(new Profile(type.wireName(), plugin, plugin.retrySafety(READS)));
        }
        ChannelPlugin linkedIn = PLUGINS.plugin(ChannelType.of("linkedin"));
        RetrySafety withoutRead = linkedIn.retrySafety(NO_READ_SCOPE);
        assertThat(withoutRead).as("LinkedIn without its read scope").isEqualTo(RetrySafety.NONE);
        profiles.add(new Profile("linkedin/none", linkedIn, withoutRead));
        return List.copyOf(profiles);
    }

    static Profile named(String name) {
        return ALL.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private ChannelProfiles() {
    }
}
