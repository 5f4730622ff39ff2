package io.herald.command.publishing;

import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Whether an unknown create on a channel may be sent again with the same record id or idempotency
 * key, without a read-back first (docs/architecture.md#retry-safety): only where the provider itself cannot
 * make a second post from it, {@code client_id} (as often as the retry policy sends a request that
 * never left) and {@code provider_key} (once, while the provider still knows the key). The class
 * asked is the one that holds without any read access, since the re-send must not lean on reading.
 * The publication asks it, as a parameter of its command handlers.
 */
@Component
public class SameKeyResendPolicy {

    /** What a channel allows: its class and how long after the first send a re-send may start. */
    public record Licence(RetrySafety retrySafety, Duration window) {

        /** The last instant a re-send of a chain begun at {@code originalStartedAt} may start; null: none. */
        public Instant until(Instant originalStartedAt) {
            Duration room = Duration.between(originalStartedAt, Instant.MAX);
            return window.compareTo(room) >= 0 ? null : originalStartedAt.plus(window);
        }

        /** How many re-sends one chain may take at most; {@code notSentMaxTries} bounds a {@code client_id} chain. */
        boolean allowsResendNo(int resendNo, RetryPolicy retryPolicy, ChannelType type) {
            return retrySafety == RetrySafety.PROVIDER_KEY ? resendNo == 1 : retryPolicy.mayResend(type, resendNo);
        }
    }

    private static final Capability NO_READING = Capability.unavailable("not asked: a re-send does not read");

    private final Function<ChannelType, Optional<Licence>> licences;

    @Autowired
    public SameKeyResendPolicy(ChannelPlugins plugins) {
        this(type -> licenceOf(plugins.plugin(type)));
    }

    public SameKeyResendPolicy(Function<ChannelType, Optional<Licence>> licences) {
        this.licences = licences;
    }

    /** No channel re-sends: every unknown create is read back (rule 3 without its exception). */
    public static SameKeyResendPolicy never() {
        return new SameKeyResendPolicy(type -> Optional.empty());
    }

    /** The channel's licence to re-send, empty for {@code read_back} and {@code none}. */
    public Optional<Licence> licence(ChannelType type) {
        return licences.apply(type);
    }

    /**
     * Whether re-send {@code resendNo} of a chain whose first attempt was sent at
     * {@code originalStartedAt} may be sent at {@code now}.
     */
    public Optional<Licence> allows(ChannelType type, int resendNo, Instant originalStartedAt, Instant now,
                                    RetryPolicy retryPolicy) {
        return licence(type).filter(licence -> licence.allowsResendNo(resendNo, retryPolicy, type))
                .filter(licence -> {
                    Instant until = licence.until(originalStartedAt);
                    return until == null || now.isBefore(until);
                });
    }

    static Optional<Licence> licenceOf(ChannelPlugin plugin) {
        RetrySafety safety = plugin.retrySafety(NO_READING);
        Duration window = plugin.resendWindow();
        boolean resends = (safety == RetrySafety.CLIENT_ID || safety == RetrySafety.PROVIDER_KEY)
                && !window.isNegative() && !window.isZero();
        return resends ? Optional.of(new Licence(safety, window)) : Optional.empty();
    }
}
