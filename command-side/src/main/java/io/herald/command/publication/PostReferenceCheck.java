package io.herald.command.publication;

import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.command.channel.CapabilityProbes;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationView;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Before an operator's {@code confirm_published} names a publish's or draft's post (the post its
 * entry's updates and deletes then act on, the WordPress plugin's delete on trashing included), the
 * request reads it back with the connection's credentials. It is accepted when it exists, is the
 * connection's own (the Page, the author, the site user or Herald's meta key) and is not already the
 * post of another publish or draft in the workspace; otherwise 422 {@code post_not_owned} with what
 * was found. Where the channel cannot read, the decision is recorded as unverified.
 *
 * <p>The read calls a provider from a request thread, so it is bounded twice, as a capability probe
 * is: at most {@link #READ_LIMIT}, and only with one of the workspace's probe slots. A provider that
 * does not answer in time is 503 {@code unavailable} and nothing is recorded: silence says nothing
 * about whose the post is, and the operator can simply send the decision again.
 */
@Component
class PostReferenceCheck {

    private static final Logger log = LoggerFactory.getLogger(PostReferenceCheck.class);

    static final Duration READ_LIMIT = Duration.ofSeconds(10);

    /** What the check established: the reference to record, and whether it was read back. */
    record Checked(ProviderRef ref, boolean verified) {
    }

    private final ChannelDirectory directory;
    private final ChannelPlugins adapters;
    private final EntryOrder entries;
    private final CapabilityProbes probes;

    PostReferenceCheck(ChannelDirectory directory, ChannelPlugins adapters, EntryOrder entries,
                       CapabilityProbes probes) {
        this.directory = directory;
        this.adapters = adapters;
        this.entries = entries;
        this.probes = probes;
    }

    /** Whether the decision names the post the entry's later changes act on: then it is checked. */
    static boolean namesThePost(PublicationView view, ProviderRef named) {
        return named != null && view.action().createsPost()
                && (view.decisionStep() == null || !view.decisionStep().followsPost() || waitsForThePost(view));
    }

    /**
     * The step after the post never ran: it waits for the post to be confirmed with a reference
     * Herald can read (the post was confirmed without being read back), so a confirmation names the post.
     */
    private static boolean waitsForThePost(PublicationView view) {
        return view.steps().stream().anyMatch(s -> s.step() == view.decisionStep()
                && s.status() == PublicationView.StepStatus.PENDING);
    }

    /** @throws HeraldRejection {@code post_not_owned}, {@code unavailable} or {@code rate_limited} */
    Checked check(PublicationView view, ProviderRef named) {
        PublicationId publication = view.publicationId();
        Optional<ChannelConnection> connection = directory.find(view.workspaceId(), view.channelId());
        if (connection.isEmpty()) {
            requireFree(view, named);
            return new Checked(named, false);
        }
        PostOwnership ownership = read(view, new PostOwnershipRequest(named, publication, connection.get()));
        if (ownership instanceof PostOwnership.Owned owned) {
            requireFree(view, owned.post());
            requireFree(view, named);
            log.info("post {} named for {} is the connection's: {}", owned.post().id(), publication, owned.detail());
            return new Checked(new ProviderRef(owned.post().id(),
                    owned.post().url() != null ? owned.post().url() : named.url()), true);
        }
        if (ownership instanceof PostOwnership.NotOwned notOwned) {
            log.warn("post named for {} refused: {}", publication, notOwned.found());
            throw new HeraldRejection(ErrorCode.POST_NOT_OWNED, "not the connection's post: " + notOwned.found());
        }
        if (ownership instanceof PostOwnership.Unreadable unreadable) {
            requireFree(view, named);
            log.warn("post named for {} cannot be read back, recorded unverified: {}", publication,
                    unreadable.reason());
            return new Checked(named, false);
        }
        throw new HeraldRejection(ErrorCode.UNAVAILABLE, "the post could not be read back to check it ("
                + ((PostOwnership.Unknown) ownership).reason() + "); nothing was recorded: send the decision again");
    }

    private PostOwnership read(PublicationView view, PostOwnershipRequest request) {
        CapabilityProbes.Slot slot;
        try {
            slot = probes.reserve(view.workspaceId());
        } catch (RuntimeException tooMany) { // the only refusal of reserve: the workspace's slots are taken
            throw new HeraldRejection(ErrorCode.RATE_LIMITED, tooMany.getMessage());
        }
        try (slot) {
            return adapters.forType(view.channelType()).readOwnership(request)
                    .get(READ_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new HeraldRejection(ErrorCode.UNAVAILABLE, "the provider did not answer the read of the post within "
                    + READ_LIMIT.toSeconds() + " s; nothing was recorded: send the decision again");
        } catch (ExecutionException e) {
            throw new HeraldRejection(ErrorCode.UNAVAILABLE, "the post could not be read back to check it ("
                    + e.getCause().getClass().getSimpleName() + "); nothing was recorded: send the decision again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HeraldRejection(ErrorCode.UNAVAILABLE, "interrupted while reading the post back");
        }
    }

    /** Not already the post of another publish or draft: its entry's changes would then reach this one's. */
    private void requireFree(PublicationView view, ProviderRef ref) {
        if (ref == null) {
            return;
        }
        entries.postHolder(view.workspaceId(), view.channelId(), ref, view.publicationId()).ifPresent(holder -> {
            throw new HeraldRejection(ErrorCode.POST_NOT_OWNED, "post " + (ref.id() != null ? ref.id() : ref.url())
                    + " is already the post of publication " + holder);
        });
    }
}
