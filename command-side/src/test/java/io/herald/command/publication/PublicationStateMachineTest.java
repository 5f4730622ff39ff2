package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.herald.adapters.port.ChannelConnection;
import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.ExpireAttemptCommand;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.StepClass;
import io.herald.contracts.publication.StepRole;
import io.herald.contracts.publication.StepScope;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordDuplicateSignalCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.UnknownCause;
import io.herald.query.audit.PublicationStreamCheck;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.test.AxonAssertionError;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.aggregate.ResultValidator;
import org.junit.jupiter.api.Test;

/**
 * The publication's state machine inside a model of everything around it, driven by random
 * sequences from a fixed seed. The model holds what the real parts hold: the dispatcher's
 * undelivered and already delivered triggers, the publication's one timer row (kept in step with
 * the events the way {@code TimerRows} does, fired the way {@code TimerSweep} does), the work a
 * node holds in memory after a commit (licensed calls, answers not yet recorded, reads under way),
 * and a fake provider that knows whether a post exists and counts every call that may have created
 * one. Nodes die at each boundary: before the dispatch commit (nothing happened), after it before
 * the call (the expiry row fires later), during the call (it may have created the post) and before
 * the answer is recorded (the post exists, the answer is lost). Read-backs answer truthfully or
 * inconclusively; operators decide anything, right or wrong (but where the connection cannot read
 * back, and nothing checks them, they look at the channel by hand first).
 *
 * <p>A life's content may have images and a first comment, so its steps are uploads (repeatable),
 * the post and the comment (each once only). After every step the history must keep rules 1–6 of
 * docs/architecture.md#rules-an-auditor-can-check per once-only step, a stale message must append nothing, the post must attach only
 * uploads recorded as succeeded, and the provider must hold at most one post and one comment and
 * have seen at most one call that may have created each since its last NOT_FOUND. A failure names the sequence's own seed and its
 * steps, so it can be rerun alone ({@code -Dherald.state-machine.only=N}).
 *
 * <p>Each life is on one channel, named by its type and taken from the channel plug-ins as the
 * application registers them ({@link ChannelProfiles}): the step kinds the request plans, what intake
 * refuses (a first comment on WordPress), the retry safety and the re-send window. The lives go round
 * every channel: Facebook, LinkedIn and WordPress ({@code read_back}: every unknown create is read
 * back), LinkedIn without its read scope ({@code none}: a read is unavailable, once, and an
 * operator, who looked at the channel by hand, decides), Bluesky ({@code client_id}) and Mastodon
 * ({@code provider_key}) with the publication's {@link SameKeyResendPolicy}: an unknown create is
 * then sent again at once with the same key, which the provider answers with the post it already
 * holds (Mastodon only while it keeps the key, an hour, and now and then with a 500 for the repeated
 * key, which is unknown and read back, never sent a third time); the only second create without a
 * NOT_FOUND between is such a re-send, within its bounds, and the auditor's verifier accepts every
 * history a life makes. Each channel must have had its share of lives, ended some with the post and
 * some abandoned, and reached each outcome its class can reach; a summary line per channel shows
 * its lives, posts, duplicates and lost publications (a post held as made that the provider does
 * not hold, or a publication stopped short of an end that nobody can act on), both always 0.
 *
 * <p>The lives on a container connection (Instagram, Threads: {@code read_back}):
 * the post is {@code create_container} (repeatable, once for the post) then
 * {@code publish_container} (once only). The fake provider holds each container made, invisible
 * until published: {@code IN_PROGRESS} for a few status reads, then {@code FINISHED} or now and then
 * {@code ERROR}; in some lives days pass and an unpublished one {@code EXPIRED}. A publish reads
 * the status first, as the adapters do: still processing fails {@code NOT_READY} (polled through
 * the retry row, within a small not-ready budget), expired fails {@code preparation_expired},
 * {@code ERROR} fails for good, an already published one is unknown, and only a {@code FINISHED}
 * one becomes the post, once. An unknown publish is read back through its container
 * ({@code PUBLISHED} FOUND; {@code FINISHED}, {@code EXPIRED}, {@code ERROR} NOT_FOUND;
 * {@code IN_PROGRESS} UNKNOWN). Nodes die at each boundary of both steps. There, too, the provider
 * holds at most one post; a container is created only while none is on record, and a publish is
 * granted only with the container recorded as succeeded and not forgotten since, never one a
 * publish found expired; a {@code NOT_READY} poll is never a call that may have created the post;
 * and each container is polled at most the budget's times, the last ending in a failure an
 * operator sees, after which only a person's re-attempt or execute starts the publication again.
 * On Threads a publish may answer "Media Not Found" after it made the post (unknown, read back
 * through the container), and the first comment is a reply container whose unknown creation
 * published nothing (the step failed before sending).
 *
 * <p>The random driver is a few lines here, not a property-testing library: the moves and the
 * invariants do not depend on it, so a library's driver (and its shrinking) can be put under them.
 */
class PublicationStateMachineTest {

    private static final long SEED = 20261201L;
    private static final int SEQUENCES = Integer.getInteger("herald.state-machine.sequences", 5000);
    private static final int MAX_STEPS = 50;
    /** A container life has more to do before its post: a container, and polls while it is processed. */
    private static final int CONTAINER_MAX_STEPS = 70;
    private static final Integer ONLY = Integer.getInteger("herald.state-machine.only");

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-42", 3, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content TEXT_ONLY = new Content(null, "Hello from Herald", null);
    private static final MediaId RED = MediaId.of("med_" + "a".repeat(64));
    private static final MediaId BLUE = MediaId.of("med_" + "b".repeat(64));
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "page-1", T0, true, 200, null, "trace-1", 120);
    private static final ProviderRef POST = new ProviderRef("page-1_777", null);
    private static final ProviderRef COMMENT = new ProviderRef("777_1", null);
    /** Reconciliation's schedule: the first read after the settle delay, then two more, then the operator. */
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final int MAX_READS = 3;
    /** How long a read before a re-attempt may take before its row asks again (AttemptStarter). */
    private static final Duration READ_FIRST_LEASE = Duration.ofMinutes(1);

    /** What every run must have exercised somewhere, or the test proves less than it claims. */
    private static final List<String> MUST_HAPPEN = List.of(
            "crash:before-dispatch-commit", "crash:after-commit-before-call", "crash:during-call",
            "crash:before-result-recorded", "call:too-late", "start:START", "start:READ_FIRST", "start:WAIT", "start:REFUSED",
            "trigger:stale", "trigger:redelivered", "trigger:unnumbered", "answer:succeeded", "answer:failed-NOT_SENT",
            "answer:failed-RATE_LIMITED", "answer:failed-REJECTED", "answer:unknown-READ_TIMEOUT",
            "answer:unknown-CONNECTION_RESET", "answer:unknown-SERVER_ERROR", "answer:unknown-UNPARSABLE_RESPONSE",
            "answer:duplicate", "answer:stale", "late-result", "timer:ATTEMPT_EXPIRY", "timer:ATTEMPT_DUE",
            "timer:READ_BACK_DUE", "timer:scheduled-start", "timer:retry", "timer:late", "timer:again",
            "read:FOUND", "read:NOT_FOUND", "read:UNKNOWN", "read-first:FOUND", "read-first:NOT_FOUND",
            "read-first:UNKNOWN", "operator:CONFIRM_PUBLISHED", "operator:CONFIRM_NOT_PUBLISHED",
            "operator:REATTEMPT", "operator:ABANDON", "operator:read-back", "client:execute", "client:request-again",
            "auto-reattempt", "call:upload_media", "call:first_comment", "upload:again", "read:comment-FOUND",
            "read:comment-NOT_FOUND", "operator:comment", "resend:due-client_id", "resend:due-provider_key",
            "resend:start-client_id", "resend:start-provider_key");

    /** What the container lives must have exercised somewhere. */
    private static final List<String> CONTAINER_MUST_HAPPEN = List.of("call:create_container",
            "call:publish_container", "container:created", "container:not-ready", "container:not-ready-budget-spent",
            "container:expired", "container:expired-at-publish", "container:error", "container:new-after-expiry",
            "container:published", "read:container-PUBLISHED", "read:container-FINISHED", "read:container-EXPIRED",
            "read:container-IN_PROGRESS", "read:container-ERROR", "read-first:container-FINISHED",
            "container-crash:before-commit-create_container", "container-crash:before-commit-publish_container",
            "container-crash:after-commit-create_container",
            "container-crash:after-commit-publish_container", "container-crash:during-create_container",
            "container-crash:during-publish_container", "container-crash:before-recorded-create_container",
            "container-crash:before-recorded-publish_container", "upload:again-create_container");

    /** What the lives of every channel profile must have reached, whatever its class. */
    private static final List<String> PROFILE_MUST_HAPPEN = List.of("end:posted", "end:abandoned",
            "answer:succeeded", "answer:failed-NOT_SENT", "answer:failed-REJECTED", "crash:during-call",
            "crash:before-result-recorded", "operator:CONFIRM_PUBLISHED", "operator:REATTEMPT");
    /** What the lives of each retry-safety class must have reached besides. */
    private static final Map<String, List<String>> CLASS_MUST_HAPPEN = Map.of(
            "read_back", List.of("read:FOUND", "read:NOT_FOUND", "read:UNKNOWN", "auto-reattempt"),
            "none", List.of("read:unavailable", "read-first:unavailable", "operator:CONFIRM_NOT_PUBLISHED"),
            "client_id", List.of("resend:start-client_id", "key:kept-answered", "read:FOUND"),
            "provider_key", List.of("resend:start-provider_key", "key:kept-answered", "key:repeated-500",
                    "read:FOUND"));
    /** What only one channel's lives can reach. */
    private static final Map<String, List<String>> TYPE_MUST_HAPPEN = Map.of(
            "instagram", List.of("read:container-PUBLISHED", "container:published", "call:first_comment"),
            "threads", List.of("read:container-PUBLISHED", "container:published", "threads:media-not-found",
                    "threads:reply-container-unknown", "call:first_comment"),
            "wordpress", List.of("refused:first_comment"),
            "facebook", List.of("call:first_comment", "call:upload_media"),
            "linkedin", List.of("call:first_comment", "call:upload_media"),
            "bluesky", List.of("call:first_comment", "call:upload_media"),
            "mastodon", List.of("call:first_comment", "call:upload_media"));

    /** What one channel profile's lives came to. */
    private static final class Tally {
        int lives;
        int posts;
        int duplicates;
        int lost;
        final Map<String, Integer> happened = new TreeMap<>();
    }

    @Test
    void randomLivesKeepTheRulesAndNeverCreateTwiceWithoutANotFoundBetween() {
        long began = System.nanoTime();
        Map<String, Integer> happened = new TreeMap<>();
        Map<String, Tally> byProfile = new LinkedHashMap<>();
        ChannelProfiles.ALL.forEach(p -> byProfile.put(p.name(), new Tally()));
        int sequences = 0;
        int steps = 0;
        int starts = 0;
        int calls = 0;
        for (int sequence = 0; sequence < SEQUENCES; sequence++) {
            if (ONLY != null && ONLY != sequence) {
                continue;
            }
            long seed = SEED + sequence;
            ChannelProfiles.Profile profile = ChannelProfiles.ALL.get(sequence % ChannelProfiles.ALL.size());
            Life life = new Life(seed, profile);
            try {
                life.live();
            } catch (AssertionError broken) {
                throw new AssertionError("sequence " + sequence + " (seed " + seed + ", " + profile.name()
                        + ") broke a rule at step " + life.steps + " of:\n  " + String.join("\n  ", life.journal),
                        broken);
            }
            if (ONLY != null) {
                System.out.println("[state-machine] sequence " + sequence + " (" + profile.name() + "):\n  "
                        + String.join("\n  ", life.journal));
            }
            sequences++;
            steps += life.steps;
            starts += life.starts;
            calls += life.createCalls;
            life.happened.forEach((what, n) -> happened.merge(what, n, Integer::sum));
            Tally tally = byProfile.get(profile.name());
            tally.lives++;
            tally.posts += Math.min(life.posts, 1);
            tally.duplicates += Math.max(life.posts - 1, 0);
            if (life.lost()) {
                tally.lost++;
                if (tally.lost == 1) {
                    System.out.println("[state-machine] lost: sequence " + sequence + " (" + profile.name() + "):\n  "
                            + String.join("\n  ", life.journal));
                }
            }
            life.happened.forEach((what, n) -> tally.happened.merge(what, n, Integer::sum));
        }
        int crashes = happened.entrySet().stream().filter(e -> e.getKey().startsWith("crash:"))
                .mapToInt(Map.Entry::getValue).sum();
        System.out.printf("[state-machine] seed=%d sequences=%d steps=%d attempts_started=%d provider_calls=%d"
                        + " crashes=%d seconds=%.1f%n", SEED, sequences, steps, starts, calls, crashes,
                (System.nanoTime() - began) / 1e9);
        byProfile.forEach((name, t) -> System.out.printf("[state-machine] %-13s retry_safety=%-12s lives=%d posts=%d"
                        + " duplicates=%d lost=%d%n", name, ChannelProfiles.named(name).safety().wireName(), t.lives,
                t.posts, t.duplicates, t.lost));
        System.out.println("[state-machine] " + happened);
        if (ONLY == null) {
            assertThat(happened).as("every move and boundary was exercised").containsKeys(
                    MUST_HAPPEN.toArray(String[]::new));
            assertThat(happened).as("every move and boundary of a container life was exercised").containsKeys(
                    CONTAINER_MUST_HAPPEN.toArray(String[]::new));
            assertThat(starts).as("attempts started across all sequences").isGreaterThan(sequences);
            everyChannelWasExercised(byProfile, SEQUENCES);
        }
        byProfile.forEach((name, t) -> {
            assertThat(t.duplicates).as("%s: duplicate posts", name).isZero();
            assertThat(t.lost).as("%s: lost publications", name).isZero();
        });
    }

    /**
     * Each registered channel type had its share of lives and reached each outcome its class can
     * reach: a type that silently stops being exercised fails here.
     */
    private static void everyChannelWasExercised(Map<String, Tally> byProfile, int sequences) {
        assertThat(byProfile.keySet()).as("every registered channel type has lives").containsAll(
                ChannelProfiles.PLUGINS.types().stream().map(ChannelType::wireName).toList());
        int share = sequences / ChannelProfiles.ALL.size();
        byProfile.forEach((name, t) -> {
            ChannelProfiles.Profile profile = ChannelProfiles.named(name);
            assertThat(t.lives).as("%s: lives", name).isGreaterThanOrEqualTo(share);
            assertThat(t.posts).as("%s: lives that ended with their post", name).isGreaterThan(t.lives / 40);
            assertThat(t.happened).as("%s: every outcome kind was reached", name)
                    .containsKeys(PROFILE_MUST_HAPPEN.toArray(String[]::new))
                    .containsKeys(CLASS_MUST_HAPPEN.get(profile.safety().wireName()).toArray(String[]::new));
            if (profile.reads()) {
                assertThat(t.happened).as("%s: every outcome kind was reached", name).containsKeys(
                        TYPE_MUST_HAPPEN.getOrDefault(profile.type().wireName(), List.of()).toArray(String[]::new));
            }
        });
    }

    /** What the entry-line lives must have exercised somewhere. */
    private static final List<String> LINE_MUST_HAPPEN = List.of("accept:update", "accept:delete", "turn:wait",
            "superseded", "nothing-to-change", "call:create_post", "call:update_post", "call:delete_post",
            "start:update_post-again", "start:delete_post-again", "read:update-FOUND", "read:update-NOT_FOUND",
            "read:delete-FOUND", "read:delete-NOT_FOUND", "read:publish-NOT_FOUND", "read:update-UNKNOWN",
            "start:read-first", "refused:publication_not_executable");

    /**
     * Updates and deletes of one entry at one channel, each its own publication, in lives of their
     * own (see {@link EntryLineLife}); the same seed and the same way to rerun one sequence alone.
     * The lines run on every channel profile that reads back (a {@code none} connection's unknown
     * waits for an operator, whom the publication lives above model), each action the channel
     * takes as its plug-in plans it, and each it does not take refused at intake.
     */
    @Test
    void randomEntryLinesActOneAtATimeInOrderAndNeverAfterADelete() {
        long began = System.nanoTime();
        Map<String, Integer> happened = new TreeMap<>();
        List<ChannelProfiles.Profile> profiles = ChannelProfiles.ALL.stream().filter(ChannelProfiles.Profile::reads)
                .toList();
        Map<String, Tally> byProfile = new LinkedHashMap<>();
        profiles.forEach(p -> byProfile.put(p.name(), new Tally()));
        int sequences = 0;
        int steps = 0;
        int calls = 0;
        for (int sequence = 0; sequence < SEQUENCES / 5; sequence++) {
            if (ONLY != null && ONLY != sequence) {
                continue;
            }
            long seed = SEED + sequence;
            ChannelProfiles.Profile profile = profiles.get(sequence % profiles.size());
            EntryLineLife life = new EntryLineLife(seed, profile);
            try {
                life.live();
            } catch (AssertionError broken) {
                throw new AssertionError("entry line " + sequence + " (seed " + seed + ", " + profile.name()
                        + ") broke a rule at step " + life.steps + " of:\n  " + String.join("\n  ", life.journal),
                        broken);
            }
            sequences++;
            steps += life.steps;
            calls += life.providerCalls;
            life.happened.forEach((what, n) -> happened.merge(what, n, Integer::sum));
            Tally tally = byProfile.get(profile.name());
            tally.lives++;
            tally.posts += Math.min(life.posts(), 1);
            tally.duplicates += Math.max(life.posts() - 1, 0);
            tally.lost += life.lost();
            life.happened.forEach((what, n) -> tally.happened.merge(what, n, Integer::sum));
        }
        System.out.printf("[entry-line] seed=%d sequences=%d steps=%d provider_calls=%d seconds=%.1f%n", SEED,
                sequences, steps, calls, (System.nanoTime() - began) / 1e9);
        byProfile.forEach((name, t) -> System.out.printf("[entry-line] %-13s lives=%d posts=%d duplicates=%d lost=%d"
                + " updates=%d deletes=%d%n", name, t.lives, t.posts, t.duplicates, t.lost,
                t.happened.getOrDefault("call:update_post", 0), t.happened.getOrDefault("call:delete_post", 0)));
        System.out.println("[entry-line] " + happened);
        if (ONLY == null) {
            assertThat(happened).as("every move of the line was exercised").containsKeys(
                    LINE_MUST_HAPPEN.toArray(String[]::new));
            int share = SEQUENCES / 5 / profiles.size();
            byProfile.forEach((name, t) -> {
                ChannelProfiles.Profile profile = ChannelProfiles.named(name);
                assertThat(t.lives).as("%s: entry lines", name).isGreaterThanOrEqualTo(share);
                assertThat(t.posts).as("%s: lines whose publish made the post", name).isGreaterThan(t.lives / 20);
                for (PublicationAction action : List.of(PublicationAction.UPDATE, PublicationAction.DELETE)) {
                    String step = action == PublicationAction.UPDATE ? "update_post" : "delete_post";
                    if (profile.supports(action)) {
                        assertThat(profile.kinds(action)).as("%s plans %s", name, action).isNotEmpty();
                        assertThat(t.happened).as("%s: %s accepted, called and read back", name, action)
                                .containsKeys("accept:" + action.wireName(), "call:" + step,
                                        "read:" + action.wireName() + "-FOUND",
                                        "read:" + action.wireName() + "-NOT_FOUND");
                    } else {
                        assertThat(t.happened).as("%s: %s refused at intake, never called", name, action)
                                .containsKey("refused:" + action.wireName()).doesNotContainKey("call:" + step);
                    }
                }
            });
        }
        byProfile.forEach((name, t) -> {
            assertThat(t.duplicates).as("%s: duplicate posts", name).isZero();
            assertThat(t.lost).as("%s: operations held as done that did not happen", name).isZero();
        });
    }

    /** A trigger the dispatcher sends for an event that makes an attempt due now. */
    private record Trigger(int attemptNo, AttemptTrigger trigger) {
    }

    private enum Kind { ATTEMPT_EXPIRY, ATTEMPT_DUE, READ_BACK_DUE }

    /** The publication's timer row; {@code version} changes with every write, as {@code due_at} does. */
    private record Timer(Kind kind, int attemptNo, AttemptTrigger trigger, int readNo, Instant dueAt, int version) {
    }

    private record ReadBack(ReadBackLicence licence, int readNo) {
    }

    private record ReadFirst(AttemptDecision decision, AttemptTrigger trigger) {
    }

    /** What the publication answered and the events it would append if the unit of work commits. */
    private record Decided(Object answer, List<Object> events) {
    }

    private enum Crash { NONE, BEFORE_COMMIT, AFTER_COMMIT }

    private record Move(String name, int weight, BooleanSupplier enabled, Runnable body) {
    }

    /** One publication's random life, and the world around it. */
    /** How long a {@code provider_key} provider keeps a key (Mastodon: about an hour), and Herald's window in it. */
    private static final Duration KEY_KEPT = Duration.ofHours(1);
    private static final Duration PROVIDER_KEY_WINDOW = ChannelProfiles.named("mastodon").resendWindow();
    /** The retry policy's tries of a request that never left; a {@code client_id} chain re-sends one fewer at most. */
    private static final int NOT_SENT_MAX_TRIES = 3;
    /** The container channels' kinds, taken from their plug-ins. */
    static final PublicationStep CREATE_CONTAINER = containerKind(StepRole.PREPARES_POST);
    static final PublicationStep PUBLISH_CONTAINER = containerKind(StepRole.MAKES_POST);
    /** A container channel's kind of this role, as Instagram's plug-in declares it; Threads' are the same. */
    private static PublicationStep containerKind(StepRole role) {
        List<PublicationStep> instagram = ChannelProfiles.named("instagram").kinds(PublicationAction.PUBLISH);
        assertThat(ChannelProfiles.named("threads").kinds(PublicationAction.PUBLISH)).as("Threads' kinds")
                .containsExactlyElementsOf(instagram);
        return instagram.stream().filter(k -> k.role() == role && k != PublicationStep.FIRST_COMMENT).findFirst()
                .orElseThrow();
    }

    /** The not-ready budget of a container life: small (60 by default), so that lives reach its end. */
    private static final int NOT_READY_MAX_TRIES = 2;
    /** How often a container still processing is asked again (the adapter's poll interval). */
    private static final Duration CONTAINER_POLL = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    /**
     * A container at the fake provider, as Instagram's and Threads' hold one: {@code IN_PROGRESS}
     * for a few status reads, then {@code FINISHED} (or, now and then, {@code ERROR});
     * {@code EXPIRED} once a day passes unpublished; {@code PUBLISHED} by the one publish that
     * finds it {@code FINISHED}. A publish of any other status makes no post (the sandbox answers
     * 9007 "Media ID is not available", and the adapters read the status first).
     */
    private static final class Box {
        private final String id;
        private String status = "IN_PROGRESS";
        private int readsInProgress;
        private final boolean endsInError;

        Box(String id, int readsInProgress, boolean endsInError) {
            this.id = id;
            this.readsInProgress = readsInProgress;
            this.endsInError = endsInError;
        }

        /** {@code GET /{container-id}?fields=status_code}: each read is one poll of the processing. */
        String read() {
            if ("IN_PROGRESS".equals(status)) {
                if (readsInProgress == 0) {
                    status = endsInError ? "ERROR" : "FINISHED";
                } else {
                    readsInProgress--;
                }
            }
            return status;
        }

        boolean expirable() {
            return "IN_PROGRESS".equals(status) || "FINISHED".equals(status);
        }
    }

    private static final class Life {
        private final Random random;
        /** The connection's re-send class: null for {@code read_back} and {@code none}, else {@code client_id} or {@code provider_key}. */
        private final RetrySafety safety;
        private final ChannelProfiles.Profile profile;
        /** Whether the connection can read back ({@code none}: a read is unavailable, the operator decides). */
        private final boolean canRead;
        /** Threads: a publish may answer "Media Not Found" after it made the post; the comment is a reply container. */
        private final boolean threads;
        /** A container connection (Instagram, Threads; {@code read_back}): a container, then its publish. */
        private final boolean containers;
        /** A container life in which days pass, so that containers expire unpublished. */
        private boolean daysPass;
        private final ChannelType type;
        private final FixtureConfiguration<Publication> fixture = new AggregateTestFixture<>(Publication.class);
        private final ConnectionThrottle throttle = new ConnectionThrottle();
        private final List<Object> history = new ArrayList<>();
        private final List<String> journal = new ArrayList<>();
        private final Map<String, Integer> happened = new TreeMap<>();
        private final boolean autoReattempt;
        private final Content content;
        private Instant now = T0;

        // the dispatcher: triggers whose StartAttempt has not committed yet, and those sent before
        private final Deque<Trigger> undelivered = new ArrayDeque<>();
        private final List<Trigger> delivered = new ArrayList<>();
        // the timer table's row of this publication, and rows claimed before (they fire again if their node died)
        private Timer timer;
        private int timerVersions;
        private final List<Timer> claimed = new ArrayList<>();
        // what a node holds in memory after a commit
        private final List<AttemptDecision> licensed = new ArrayList<>();
        private final List<Object> answers = new ArrayList<>();
        private final List<ReadBack> reads = new ArrayList<>();
        private final List<ReadFirst> readsFirst = new ArrayList<>();
        // the fake provider
        private int posts;
        /** Calls that may have created a post since the last NOT_FOUND. */
        private final Set<Integer> mayHaveCreated = new TreeSet<>();
        private int createCalls;
        private int comments;
        /** When the provider first kept the post under the publication's key ({@code client_id}, {@code provider_key}). */
        private Instant keyKeptSince;
        private int photos;
        /** Calls that may have created the comment since its last NOT_FOUND. */
        private final Set<Integer> mayHaveCommented = new TreeSet<>();
        /** The step of each attempt, as its Attempted event names it. */
        private final Map<Integer, PublicationStep> stepOf = new TreeMap<>();
        /** The attempts sent again with the key of the unknown one before them. */
        private final Set<Integer> sameKeyResends = new TreeSet<>();
        // the fake provider's containers, and what the history says of them
        private final Map<String, Box> boxes = new LinkedHashMap<>();
        /** The container the publication holds on record (recorded as succeeded, not forgotten since), or null. */
        private String containerOnRecord;
        /** Containers a publish found expired ({@code preparation_expired}): never published again. */
        private final Set<String> expiredOnRecord = new TreeSet<>();
        /** The container each publish attempt was granted. */
        private final Map<Integer, String> containerOf = new TreeMap<>();
        /** Publish attempts answered NOT_READY: the container's status was read, nothing was published. */
        private final Set<Integer> notReadyPolls = new TreeSet<>();
        /** Some container's NOT_READY polls spent the budget. */
        private boolean budgetSpent;

        private int steps;
        private int starts;
        private final List<Move> moves = List.of(
                new Move("dispatch", 6, () -> !undelivered.isEmpty(), this::dispatch),
                new Move("redeliver", 2, () -> !delivered.isEmpty(), this::redeliver),
                new Move("stale trigger", 1, () -> true, this::staleTrigger),
                new Move("trigger stored without a number", 1, () -> true, this::unnumberedTrigger),
                new Move("call", 12, () -> !licensed.isEmpty(), this::call),
                new Move("record answer", 6, () -> !answers.isEmpty(), this::recordAnswer),
                new Move("crash before recording", 1, () -> !answers.isEmpty(), this::loseAnswer),
                new Move("late result", 2, () -> latestAttempt() > 1, this::lateResult),
                new Move("timer fires", 6, () -> timer != null, () -> fire(timer, false)),
                new Move("claimed timer fires again", 2, () -> !claimed.isEmpty(), this::fireClaimedAgain),
                new Move("read-back answers", 4, () -> !reads.isEmpty(), this::readBackAnswers),
                new Move("read before re-attempt answers", 4, () -> !readsFirst.isEmpty(), this::readFirstAnswers),
                new Move("operator decides", 3, () -> true, this::operatorDecides),
                new Move("operator asks for a read-back", 1, () -> true, this::operatorReadBack),
                new Move("client executes", 1, () -> true, this::clientExecutes),
                new Move("client requests again", 1, () -> true, this::clientRequestsAgain),
                new Move("rate limit on the connection", 1, () -> true, this::connectionRateLimited),
                new Move("a day passes: a container expires", 1,
                        () -> daysPass && boxes.values().stream().anyMatch(Box::expirable), this::containerExpires));

        Life(long seed, ChannelProfiles.Profile profile) {
            random = new Random(seed);
            this.profile = profile;
            type = profile.type();
            containers = profile.containers();
            canRead = profile.reads();
            threads = type.wireName().equals("threads");
            // the class the publication's re-send policy takes from the plug-in: client_id, provider_key or none
            safety = profile.resendLicence().map(SameKeyResendPolicy.Licence::retrySafety).orElse(null);
            daysPass = containers && new SplittableRandom(~seed).nextBoolean();
            autoReattempt = random.nextBoolean();
            fixture.registerInjectableResource(throttle);
            fixture.registerInjectableResource(new ScriptedEntryOrder());
            fixture.registerInjectableResource(ConnectionHealth.allActive());
            fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(
                    new ChannelConnection(ws, ch, type, null, null, autoReattempt))));
            fixture.registerInjectableResource(new SameKeyResendPolicy(ChannelProfiles.PLUGINS));
            // no jitter: a sequence replays exactly from its seed
            fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                    new PublishingProperties.Retry(NOT_SENT_MAX_TRIES, 3, Duration.ofSeconds(2), 2.0, 0.0,
                            Duration.ofMinutes(1), containers ? NOT_READY_MAX_TRIES : null),
                    null)));
            Instant scheduledAt = random.nextInt(4) == 0 ? T0.plusSeconds(1 + random.nextInt(600)) : null;
            List<ContentMedia> images = List.of(new ContentMedia(RED, "red"), new ContentMedia(BLUE, "blue"))
                    .subList(0, random.nextInt(3));
            String comment = random.nextBoolean() ? "First comment" : null;
            Content asked = images.isEmpty() && comment == null ? TEXT_ONLY
                    : new Content(null, "Hello from Herald", null, images, comment);
            // intake: a step the channel does not take (a first comment on WordPress) is refused before anything
            Optional<FieldViolation> refused = profile.unsupported(PublicationAction.PUBLISH, asked);
            if (refused.isPresent()) {
                assertThat(comment).as("%s refuses only a step it lacks: %s", type, refused.get()).isNotNull();
                assertThat(profile.kinds(PublicationAction.PUBLISH)).as("%s refuses a first comment it has no kind for",
                        type).doesNotContain(PublicationStep.FIRST_COMMENT);
                happened("refused:first_comment");
                asked = images.isEmpty() ? TEXT_ONLY : new Content(null, "Hello from Herald", null, images, null);
                assertThat(profile.unsupported(PublicationAction.PUBLISH, asked)).isEmpty();
            }
            content = asked;
            journal.add("requested on " + profile.name() + (scheduledAt != null ? " for " + scheduledAt : "")
                    + ", retry safety " + profile.safety().wireName() + ", auto re-attempt " + autoReattempt + ", "
                    + images.size() + " image(s), comment " + (content.firstComment() != null)
                    + (containers ? ", container connection" + (daysPass ? " whose containers expire" : "") : ""));
            // as intake sends it: the channel's step kinds for the action, from its plug-in
            Decided requested = decide(new RequestPublicationCommand(ID, WS, "entry-42", 3, CHANNEL, type,
                    PublicationAction.PUBLISH, content, scheduledAt, T0, "calendar",
                    profile.kinds(PublicationAction.PUBLISH)));
            assertThat(requested.events()).as("the request").singleElement()
                    .isInstanceOf(PublicationRequestedEvent.class);
            commit(requested.events());
        }

        void live() {
            while (steps < (containers ? CONTAINER_MAX_STEPS : MAX_STEPS) && !settled()) {
                now = now.plusSeconds(1 + random.nextInt(20));
                List<Move> enabled = moves.stream().filter(m -> m.enabled().getAsBoolean()).toList();
                int ticket = random.nextInt(enabled.stream().mapToInt(Move::weight).sum());
                Move move = enabled.get(0);
                for (Move m : enabled) {
                    ticket -= m.weight();
                    if (ticket < 0) {
                        move = m;
                        break;
                    }
                }
                steps++;
                journal.add(steps + ". " + move.name());
                move.body().run();
                checkTheRules();
            }
            theVerifierAcceptsTheHistory();
            boolean abandoned = history.stream().anyMatch(PublicationAbandonedEvent.class::isInstance);
            happened(done(PublicationStep.CREATE_POST) ? "end:posted" : abandoned ? "end:abandoned" : "end:open");
        }

        /**
         * The publication is lost: it holds its post as made on Herald's own evidence (a success, a
         * read that found it) while the provider holds none, or it stopped short of an end with
         * nothing due, no node holding work for it, and no decision an operator could take on it.
         */
        boolean lost() {
            PublicationStep last = null;
            boolean claimed = false;
            for (Object event : history) {
                if (event instanceof PublicationAttemptedEvent a) {
                    last = stepOf.get(a.attemptNo());
                } else if (event instanceof PublicationSucceededEvent && last.makesPost()
                        || event instanceof PublicationReconciledEvent r && r.result() == ReconciliationResult.FOUND
                        && r.source() == ReconciliationSource.AUTOMATIC && !last.followsPost()) {
                    claimed = true;
                }
            }
            if (claimed && posts == 0) {
                return true;
            }
            boolean abandoned = history.stream().anyMatch(PublicationAbandonedEvent.class::isInstance);
            boolean terminal = abandoned || done(PublicationStep.CREATE_POST)
                    && (content.firstComment() == null || done(PublicationStep.FIRST_COMMENT));
            boolean pending = timer != null || !undelivered.isEmpty() || !licensed.isEmpty() || !answers.isEmpty()
                    || !reads.isEmpty() || !readsFirst.isEmpty();
            return !terminal && !pending && decide(new DecidePublicationCommand(ID, WS, OperatorDecision.ABANDON,
                    null, "olga", null, now, null)).events().isEmpty();
        }

        /** The auditor's verifier, fed the stream as the store holds it, finds no breach in it. */
        private void theVerifierAcceptsTheHistory() {
            PublicationStreamCheck check = new PublicationStreamCheck(ID.value());
            for (int sequence = 0; sequence < history.size(); sequence++) {
                Object event = history.get(sequence);
                check.accept(sequence, event.getClass().getSimpleName(), JSON.valueToTree(event));
            }
            assertThat(check.breachesSoFar()).as("the verifier's breaches of this history").isEmpty();
        }

        /** Nothing more can happen: the publication is final and no node holds work for it. */
        private boolean settled() {
            boolean abandoned = history.stream().anyMatch(PublicationAbandonedEvent.class::isInstance);
            boolean terminal = abandoned || done(PublicationStep.CREATE_POST)
                    && (content.firstComment() == null || done(PublicationStep.FIRST_COMMENT));
            return terminal && timer == null && undelivered.isEmpty() && licensed.isEmpty() && answers.isEmpty()
                    && reads.isEmpty() && readsFirst.isEmpty();
        }

        // ---- the dispatcher and the starts (AttemptStarter) ----

        private void dispatch() {
            Trigger trigger = undelivered.peekFirst();
            if (start(trigger.attemptNo(), trigger.trigger(), false, crashAtStart()) != null) {
                // the token committed with the batch: the event is not delivered again
                undelivered.removeFirst();
                delivered.add(trigger);
            }
        }

        /** A node died after sending the trigger: the same StartAttempt comes again. */
        private void redeliver() {
            Trigger trigger = delivered.get(random.nextInt(delivered.size()));
            happened("trigger:redelivered");
            start(trigger.attemptNo(), trigger.trigger(), false, crashAtStart());
        }

        private void staleTrigger() {
            int next = latestAttempt() + 1;
            int expected = next > 1 && random.nextBoolean() ? next - 1 : next + 1 + random.nextInt(2);
            happened("trigger:stale");
            AttemptDecision decision = start(expected, pick(AttemptTrigger.values()), random.nextBoolean(),
                    Crash.NONE);
            assertThat(decision.verdict()).as("a trigger for attempt %d when %d is next", expected, next)
                    .isEqualTo(Verdict.REFUSED);
            assertThat(decision.refusal()).isEqualTo(Publication.STALE_TRIGGER);
        }

        /** A timer or trigger stored before attempt numbers were recorded asks for whatever attempt is next. */
        private void unnumberedTrigger() {
            happened("trigger:unnumbered");
            start(0, pick(AttemptTrigger.values()), false, crashAtStart());
        }

        /**
         * StartAttempt inside a unit of work, then what AttemptStarter does with the decision; the node
         * may die before the commit (null: nothing happened) or right after it.
         */
        private AttemptDecision start(int expected, AttemptTrigger trigger, boolean readDone, Crash crash) {
            Decided decided = decide(new StartAttemptCommand(ID, expected, trigger, now, TIMEOUT, readDone));
            AttemptDecision decision = (AttemptDecision) decided.answer();
            journal.add("     start(" + expected + ", " + trigger + (readDone ? ", read done" : "") + ") -> "
                    + decision.verdict() + (decision.refusal() != null ? " " + decision.refusal() : "")
                    + (crash != Crash.NONE ? ", node dies " + crash : ""));
            if (decision.started()) {
                assertThat(decided.events()).as("rule 1: a granted start is on record first").singleElement()
                        .isInstanceOfSatisfying(PublicationAttemptedEvent.class,
                                a -> assertThat(a.attemptNo()).isEqualTo(decision.attemptNo()));
                grantedWithItsContainer(decision);
            } else {
                assertThat(decided.events()).as("a start that is not granted appends nothing").isEmpty();
            }
            if (crash == Crash.BEFORE_COMMIT) {
                happened("crash:before-dispatch-commit");
                containerCrash("before-commit", decision.started() ? decision.stepOrPost() : null);
                return null;
            }
            commit(decided.events());
            happened("start:" + decision.verdict());
            switch (decision.verdict()) {
                case START -> {
                    starts++;
                    if (trigger == AttemptTrigger.RESEND_SAME_KEY) {
                        happened("resend:start-" + safety.wireName());
                    }
                    if (trigger == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND) {
                        happened("auto-reattempt");
                    }
                    if (decision.stepOrPost() == PUBLISH_CONTAINER) {
                        containerOf.put(decision.attemptNo(), decision.uploads().get(0).providerRef().id());
                    }
                    if (crash == Crash.AFTER_COMMIT) {
                        happened("crash:after-commit-before-call");
                        containerCrash("after-commit", decision.stepOrPost());
                    } else {
                        licensed.add(decision);
                    }
                }
                case READ_FIRST -> {
                    write(Kind.ATTEMPT_DUE, decision.attemptNo(), trigger, 0, now.plus(READ_FIRST_LEASE));
                    if (crash != Crash.AFTER_COMMIT) {
                        readsFirst.add(new ReadFirst(decision, trigger));
                    }
                }
                case WAIT -> write(Kind.ATTEMPT_DUE, decision.attemptNo(), trigger, 0, decision.notBefore());
                case REFUSED -> { }
            }
            return decision;
        }

        /**
         * A container is created only while none is on record; a publish is granted only with the
         * container recorded as succeeded and not forgotten since, never one a publish found expired.
         */
        private void grantedWithItsContainer(AttemptDecision decision) {
            PublicationStep step = decision.stepOrPost();
            if (step == CREATE_CONTAINER) {
                assertThat(decision.mediaId()).as("a container is made for the whole post").isNull();
                assertThat(containerOnRecord).as("a container is created only while none is on record").isNull();
            } else if (step == PUBLISH_CONTAINER) {
                assertThat(decision.uploads()).as("a publish carries its container, and no image").singleElement()
                        .satisfies(u -> assertThat(u.mediaId()).isNull());
                String box = decision.uploads().get(0).providerRef().id();
                assertThat(box).as("a publish is granted only with the container recorded as succeeded and not"
                        + " forgotten").isEqualTo(containerOnRecord);
                assertThat(expiredOnRecord).as("after preparation_expired the next publish uses a new container")
                        .doesNotContain(box);
            }
        }

        /** The container steps' own crash boundaries, counted apart so that each is seen exercised. */
        private void containerCrash(String boundary, PublicationStep step) {
            if (step == CREATE_CONTAINER || step == PUBLISH_CONTAINER) {
                happened("container-crash:" + boundary + "-" + step.wireName());
            }
        }

        private Crash crashAtStart() {
            int dice = random.nextInt(10);
            return dice == 0 ? Crash.BEFORE_COMMIT : dice == 1 ? Crash.AFTER_COMMIT : Crash.NONE;
        }

        // ---- the provider (AttemptCaller) and the result recorder ----

        private void call() {
            AttemptDecision licence = licensed.remove(random.nextInt(licensed.size()));
            int attemptNo = licence.attemptNo();
            assertThat(history).as("rule 1: the call for attempt %d comes after its Attempted", attemptNo)
                    .anyMatch(e -> e instanceof PublicationAttemptedEvent a && a.attemptNo() == attemptNo);
            Instant deadline = ((PublicationAttemptedEvent) history.stream()
                    .filter(e -> e instanceof PublicationAttemptedEvent a && a.attemptNo() == attemptNo)
                    .findFirst().orElseThrow()).expiresAt();
            if (!now.isBefore(deadline)) {
                // AttemptCaller: a call still waiting at its attempt's deadline is never made
                happened("call:too-late");
                journal.add("     the call waited past its deadline: not made");
                return;
            }
            PublicationStep step = licence.stepOrPost();
            happened("call:" + step.wireName());
            if (step == PublicationStep.UPLOAD_MEDIA) {
                upload(licence);
                return;
            }
            if (step == CREATE_CONTAINER) {
                createContainer(licence);
                return;
            }
            if (step == PUBLISH_CONTAINER) {
                publishContainer(licence);
                return;
            }
            if (step == PublicationStep.CREATE_POST) {
                // the post uses every image, each by an upload whose success is recorded
                assertThat(licence.uploads()).as("the post attaches the recorded uploads")
                        .hasSize(content.media().size());
                licence.uploads().forEach(u -> assertThat(history).as("upload of %s recorded", u.mediaId())
                        .anyMatch(e -> e instanceof PublicationSucceededEvent ok
                                && stepOf.get(ok.attemptNo()) == PublicationStep.UPLOAD_MEDIA
                                && ok.providerRef().equals(u.providerRef())));
            }
            boolean comment = step == PublicationStep.FIRST_COMMENT;
            if (comment) {
                assertThat(done(PublicationStep.CREATE_POST)).as("the comment comes after the post").isTrue();
            } else {
                createCalls++;
            }
            if (!comment && keepsTheKey()) {
                // the provider knows the key: the same post again, never a second one
                journal.add("     the provider holds a post under this key: it answers with it");
                happened("key:kept-answered");
                boolean answered500 = random.nextBoolean();
                if (answered500 && safety == RetrySafety.PROVIDER_KEY) {
                    // Mastodon answers a repeated Idempotency-Key with a 500: unknown, read back, never sent a third time
                    happened("key:repeated-500");
                }
                answers.add(!answered500
                        ? new RecordAttemptSucceededCommand(ID, attemptNo, POST, TRACE, now)
                        : new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, UnknownCause.SERVER_ERROR,
                                "a repeated key answered with a 500", TRACE, now));
                return;
            }
            int dice = random.nextInt(12);
            if (dice == 0) {
                happened("crash:during-call");
                journal.add("     node dies during the call");
                mayHaveCreated(attemptNo, random.nextBoolean(), comment);
                return;
            }
            Object answer;
            if (comment && threads && (dice == 7 || dice == 8)) {
                // Threads' first comment is a reply container, then its publish: an unknown container published
                // nothing, so the step failed before sending
                happened("threads:reply-container-unknown");
                answers.add(new RecordAttemptFailedCommand(ID, attemptNo, FailureKind.NOT_SENT, null,
                        "Only a container was asked for; nothing was published.", TRACE, null, now));
                journal.add("     the reply's container is unknown: nothing was published");
                return;
            }
            if (dice <= 3) {
                mayHaveCreated(attemptNo, true, comment);
                answer = new RecordAttemptSucceededCommand(ID, attemptNo, comment ? COMMENT : POST, TRACE, now);
            } else if (dice <= 6) {
                FailureKind kind = pick(FailureKind.values());
                answer = new RecordAttemptFailedCommand(ID, attemptNo, kind, "x", "x", TRACE,
                        kind == FailureKind.RATE_LIMITED || random.nextBoolean() ? Duration.ofSeconds(5) : null, now);
            } else if (dice <= 9 || comment) {
                mayHaveCreated(attemptNo, random.nextBoolean(), comment);
                UnknownCause cause = pick(UnknownCause.READ_TIMEOUT, UnknownCause.CONNECTION_RESET,
                        UnknownCause.SERVER_ERROR, UnknownCause.UNPARSABLE_RESPONSE);
                answer = new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, cause, "x", TRACE, now);
            } else {
                // refused as a duplicate: this call wrote nothing
                answer = new RecordDuplicateSignalCommand(ID, attemptNo, POST, "duplicate", TRACE, now);
            }
            journal.add("     provider answers " + answer.getClass().getSimpleName() + ", post exists: " + (posts > 0));
            answers.add(answer);
        }

        /** The call reached the provider without proving it did not execute. */
        private void mayHaveCreated(int attemptNo, boolean created, boolean comment) {
            (comment ? mayHaveCommented : mayHaveCreated).add(attemptNo);
            if (created && comment) {
                comments++;
            } else if (created) {
                posts++;
                keyKeptSince = now;
            }
        }

        /** Whether a create with the publication's key is answered with the post the provider already holds. */
        private boolean keepsTheKey() {
            return posts > 0 && (safety == RetrySafety.CLIENT_ID
                    || safety == RetrySafety.PROVIDER_KEY && now.isBefore(keyKeptSince.plus(KEY_KEPT)));
        }

        /** An upload: repeatable, so the provider may hold photos no post uses; only what is recorded counts. */
        private void upload(AttemptDecision licence) {
            int attemptNo = licence.attemptNo();
            int dice = random.nextInt(8);
            if (dice == 0) {
                happened("crash:during-call");
                photos += random.nextInt(2);
                return;
            }
            Object answer;
            if (dice <= 4) {
                photos++;
                answer = new RecordAttemptSucceededCommand(ID, attemptNo, new ProviderRef("photo-" + photos, null),
                        TRACE, now);
            } else if (dice == 5) {
                FailureKind kind = pick(FailureKind.values());
                answer = new RecordAttemptFailedCommand(ID, attemptNo, kind, "x", "x", TRACE,
                        kind == FailureKind.RATE_LIMITED || random.nextBoolean() ? Duration.ofSeconds(5) : null, now);
            } else {
                photos += random.nextInt(2);
                answer = new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, UnknownCause.READ_TIMEOUT, "x", TRACE,
                        now);
            }
            journal.add("     provider answers the upload of " + licence.mediaId() + ": "
                    + answer.getClass().getSimpleName());
            answers.add(answer);
        }

        /**
         * {@code create_container}: repeatable, so the provider may hold containers no publish uses
         * (invisible; they expire); only the one recorded as succeeded is published.
         */
        private void createContainer(AttemptDecision licence) {
            int attemptNo = licence.attemptNo();
            int dice = random.nextInt(8);
            if (dice == 0) {
                happened("crash:during-call");
                containerCrash("during", CREATE_CONTAINER);
                journal.add("     node dies while the container is created");
                if (random.nextBoolean()) {
                    newBox();
                }
                return;
            }
            Object answer;
            if (dice <= 5) {
                answer = new RecordAttemptSucceededCommand(ID, attemptNo, new ProviderRef(newBox().id, null), TRACE,
                        now);
            } else if (dice == 6) {
                FailureKind kind = pick(FailureKind.NOT_SENT, FailureKind.RATE_LIMITED, FailureKind.REJECTED);
                answer = new RecordAttemptFailedCommand(ID, attemptNo, kind, "x", "x", TRACE,
                        kind == FailureKind.RATE_LIMITED ? Duration.ofSeconds(5) : null, now);
            } else {
                if (random.nextBoolean()) {
                    newBox();
                }
                answer = new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, UnknownCause.READ_TIMEOUT, "x", TRACE,
                        now);
            }
            journal.add("     provider answers the container's creation: " + describe(answer));
            answers.add(answer);
        }

        private Box newBox() {
            Box box = new Box("box-" + (boxes.size() + 1), random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(5),
                    random.nextInt(12) == 0);
            boxes.put(box.id, box);
            happened("container:created");
            return box;
        }

        /**
         * {@code publish_container}: the container's status first (the adapters' order), and only a
         * {@code FINISHED} one is published; the account's publishing limit may refuse it before.
         */
        private void publishContainer(AttemptDecision licence) {
            int attemptNo = licence.attemptNo();
            String id = licence.uploads().get(0).providerRef().id();
            Box box = boxes.get(id);
            assertThat(box).as("the publish names a container the provider made").isNotNull();
            if (random.nextInt(16) == 0) {
                happened("crash:during-call");
                containerCrash("during", PUBLISH_CONTAINER);
                journal.add("     node dies while reading the status of " + id);
                return;
            }
            String status = box.read();
            Object answer = switch (status) {
                case "IN_PROGRESS" -> {
                    happened("container:not-ready");
                    notReadyPolls.add(attemptNo);
                    yield new RecordAttemptFailedCommand(ID, attemptNo, FailureKind.NOT_READY, "container_not_ready",
                            "still processing", TRACE, CONTAINER_POLL, now);
                }
                case "EXPIRED" -> {
                    happened("container:expired-at-publish");
                    yield new RecordAttemptFailedCommand(ID, attemptNo, FailureKind.NOT_SENT,
                            PublicationFailedEvent.PREPARATION_EXPIRED, "expired", TRACE, null, now);
                }
                case "ERROR" -> {
                    happened("container:error");
                    yield new RecordAttemptFailedCommand(ID, attemptNo, FailureKind.REJECTED, "container_error",
                            "could not be processed", TRACE, null, now);
                }
                // an earlier publish whose answer was lost: nothing is sent, it is read back
                case "PUBLISHED" -> new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, UnknownCause.SERVER_ERROR,
                        "already published", TRACE, now);
                default -> mediaPublish(attemptNo, box);
            };
            if (answer == null) {
                return;
            }
            journal.add("     container " + id + " " + status + ", provider answers " + describe(answer)
                    + ", post exists: " + (posts > 0));
            answers.add(answer);
        }

        /** {@code media_publish} of a FINISHED container; null when the node dies during the call. */
        private Object mediaPublish(int attemptNo, Box box) {
            createCalls++;
            int dice = random.nextInt(12);
            if (dice == 0) {
                happened("crash:during-call");
                containerCrash("during", PUBLISH_CONTAINER);
                journal.add("     node dies during the publish of " + box.id);
                publishMaybe(attemptNo, box, random.nextBoolean());
                return null;
            }
            if (dice <= 4) {
                publishMaybe(attemptNo, box, true);
                return new RecordAttemptSucceededCommand(ID, attemptNo, POST, TRACE, now);
            }
            if (dice <= 6) {
                // the publishing limit, or a request that never left: nothing was published
                FailureKind kind = pick(FailureKind.NOT_SENT, FailureKind.RATE_LIMITED, FailureKind.REJECTED);
                return new RecordAttemptFailedCommand(ID, attemptNo, kind, "x", "x", TRACE,
                        kind == FailureKind.RATE_LIMITED ? Duration.ofSeconds(5) : null, now);
            }
            if (threads && dice >= 10) {
                // Threads answers "Media Not Found" (24/4279009) also after publishing: unknown, read back
                happened("threads:media-not-found");
                publishMaybe(attemptNo, box, true);
                return new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, UnknownCause.SERVER_ERROR,
                        "Media Not Found", TRACE, now);
            }
            publishMaybe(attemptNo, box, random.nextBoolean());
            return new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, pick(UnknownCause.READ_TIMEOUT,
                    UnknownCause.CONNECTION_RESET, UnknownCause.SERVER_ERROR), "x", TRACE, now);
        }

        /** The publish reached the provider: a FINISHED container becomes the post, once. */
        private void publishMaybe(int attemptNo, Box box, boolean published) {
            mayHaveCreated.add(attemptNo);
            if (published && "FINISHED".equals(box.status)) {
                box.status = "PUBLISHED";
                posts++;
                happened("container:published");
            }
        }

        /** A day passes for one container: unpublished, it expires at the provider. */
        private void containerExpires() {
            List<Box> expirable = boxes.values().stream().filter(Box::expirable).toList();
            Box box = expirable.get(random.nextInt(expirable.size()));
            box.status = "EXPIRED";
            happened("container:expired");
            journal.add("     container " + box.id + " expired");
        }

        private void recordAnswer() {
            Object answer = answers.remove(random.nextInt(answers.size()));
            happened("answer:" + describe(answer));
            int attemptNo = attemptNoOf(answer);
            boolean stale = !attemptInFlight(attemptNo);
            Decided decided = decide(answer);
            journal.add("     recorded " + describe(answer) + " of attempt " + attemptNo + " -> " + decided.events());
            if (stale) {
                happened("answer:stale");
                assertThat(decided.events()).as("rule 5: a result for attempt %d, not in flight, changes nothing",
                        attemptNo).isEmpty();
            }
            commit(decided.events());
            if (answer instanceof RecordAttemptFailedCommand failed && failed.kind() == FailureKind.RATE_LIMITED) {
                // AttemptCaller: the limit holds the whole connection until the publication's retry time
                Instant until = decided.answer() instanceof Instant retryAt ? retryAt : now.plus(failed.providerDelay());
                throttle.holdUntil(WS, CHANNEL, until);
            }
        }

        private void loseAnswer() {
            Object answer = answers.remove(random.nextInt(answers.size()));
            happened("crash:before-result-recorded");
            containerCrash("before-recorded", stepOf.get(attemptNoOf(answer)));
            journal.add("     node dies before recording " + describe(answer) + " of attempt " + attemptNoOf(answer));
        }

        /** A result or read-back of an older attempt, arriving late. */
        private void lateResult() {
            int attemptNo = 1 + random.nextInt(latestAttempt() - 1);
            Object result = switch (random.nextInt(5)) {
                case 0 -> new RecordAttemptSucceededCommand(ID, attemptNo, POST, TRACE, now);
                case 1 -> new RecordAttemptFailedCommand(ID, attemptNo, pick(FailureKind.values()), "x", "x", TRACE,
                        null, now);
                case 2 -> new RecordAttemptOutcomeUnknownCommand(ID, attemptNo, pick(UnknownCause.values()), "x",
                        TRACE, now);
                case 3 -> new RecordDuplicateSignalCommand(ID, attemptNo, POST, "duplicate", TRACE, now);
                default -> new RecordReconciliationCommand(ID, attemptNo, pick(ReconciliationResult.values()), POST,
                        "late read", now);
            };
            happened("late-result");
            Decided decided = decide(result);
            journal.add("     late " + describe(result) + " of attempt " + attemptNo);
            assertThat(decided.events()).as("rule 5: %s for the older attempt %d changes nothing", describe(result),
                    attemptNo).isEmpty();
        }

        // ---- the timer row (TimerRows) and the sweep (TimerSweep) ----

        private void write(Kind kind, int attemptNo, AttemptTrigger trigger, int readNo, Instant dueAt) {
            timer = new Timer(kind, attemptNo, trigger, readNo, dueAt, ++timerVersions);
        }

        /** Keeps the row, the dispatcher's triggers and the provider's count in step with an appended event. */
        private void commit(List<Object> events) {
            for (Object event : events) {
                history.add(event);
                if (event instanceof PublicationRequestedEvent requested) {
                    if (requested.scheduledAt() != null && requested.scheduledAt().isAfter(requested.requestedAt())) {
                        write(Kind.ATTEMPT_DUE, 1, AttemptTrigger.INITIAL, 0, requested.scheduledAt());
                    } else {
                        undelivered.add(new Trigger(1, AttemptTrigger.INITIAL));
                    }
                } else if (event instanceof PublicationAttemptedEvent attempted) {
                    stepOf.put(attempted.attemptNo(), PublicationStep.orPostStep(attempted.step(),
                            PublicationAction.PUBLISH));
                    if (attempted.trigger() == AttemptTrigger.RESEND_SAME_KEY) {
                        sameKeyResends.add(attempted.attemptNo());
                    }
                    write(Kind.ATTEMPT_EXPIRY, attempted.attemptNo(), null, 0, attempted.expiresAt());
                } else if (event instanceof PublicationNextStepDueEvent due) {
                    // TimerRows clears the row; the dispatcher asks for the next step
                    timer = null;
                    undelivered.add(new Trigger(due.attemptNo(), AttemptTrigger.NEXT_STEP));
                    if (due.step().isRepeatable() && stepOf.get(due.attemptNo() - 1) == due.step()
                            && history.get(history.size() - 2) instanceof PublicationOutcomeUnknownEvent) {
                        happened(due.step() == PublicationStep.UPLOAD_MEDIA ? "upload:again"
                                : "upload:again-" + due.step().wireName());
                    }
                } else if (event instanceof PublicationSucceededEvent || event instanceof PublicationAbandonedEvent) {
                    timer = null;
                    if (event instanceof PublicationSucceededEvent ok
                            && stepOf.get(ok.attemptNo()) == CREATE_CONTAINER) {
                        containerOnRecord = ok.providerRef().id();
                        if (!expiredOnRecord.isEmpty()) {
                            happened("container:new-after-expiry");
                        }
                        if (budgetSpent) {
                            happened("container:new-after-budget-spent");
                        }
                    }
                } else if (event instanceof PublicationFailedEvent failed) {
                    if (stepOf.get(failed.attemptNo()) == PUBLISH_CONTAINER
                            && (failed.retryAt() == null || failed.preparationExpired())) {
                        // the publication forgets the container: a later try creates a new one
                        containerOnRecord = null;
                        if (failed.preparationExpired()) {
                            expiredOnRecord.add(containerOf.get(failed.attemptNo()));
                        }
                        if (failed.kind() == FailureKind.NOT_READY) {
                            happened("container:not-ready-budget-spent");
                            budgetSpent = true;
                        }
                    } else if (failed.kind() == FailureKind.NOT_READY && budgetSpent) {
                        happened("container:polled-after-budget-spent");
                    }
                    if (failed.retryAt() != null) {
                        write(Kind.ATTEMPT_DUE, failed.attemptNo() + 1, AttemptTrigger.RETRY, 0, failed.retryAt());
                    } else {
                        timer = null;
                    }
                } else if (event instanceof PublicationOutcomeUnknownEvent unknown) {
                    write(Kind.READ_BACK_DUE, unknown.attemptNo(), null, 1, now.plus(SETTLE));
                } else if (event instanceof PublicationReconciledEvent reconciled) {
                    if (reconciled.result() != ReconciliationResult.UNKNOWN) {
                        timer = null;
                    }
                    if (reconciled.result() == ReconciliationResult.NOT_FOUND) {
                        (stepOf.get(reconciled.attemptNo()) == PublicationStep.FIRST_COMMENT ? mayHaveCommented
                                : mayHaveCreated).clear();
                        if (reconciled.source() == ReconciliationSource.AUTOMATIC) {
                            undelivered.add(new Trigger(reconciled.attemptNo() + 1,
                                    AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND));
                        }
                    }
                } else if (event instanceof PublicationReadBackRequestedEvent asked) {
                    // an open schedule keeps its place and is due now; otherwise a single read
                    if (timer == null) {
                        write(Kind.READ_BACK_DUE, asked.attemptNo(), null, Integer.MAX_VALUE, now);
                    } else if (timer.kind() == Kind.READ_BACK_DUE) {
                        write(Kind.READ_BACK_DUE, timer.attemptNo(), null, timer.readNo(), now);
                    }
                } else if (event instanceof PublicationExecutionRequestedEvent execution) {
                    undelivered.add(new Trigger(execution.attemptNo(), execution.trigger()));
                } else if (event instanceof PublicationResendDueEvent resend) {
                    // the read-back row stays: it settles the unknown create if the re-send never starts
                    happened("resend:due-" + resend.retrySafety().wireName());
                    undelivered.add(new Trigger(resend.attemptNo(), AttemptTrigger.RESEND_SAME_KEY));
                }
            }
        }

        /** The sweep claims the row and sends its command; a row without effect is deleted unless written since. */
        private void fire(Timer fired, boolean again) {
            if (now.isBefore(fired.dueAt())) {
                now = fired.dueAt();
            }
            if (random.nextInt(4) == 0) {
                // the sweep ran late (a busy or dead node)
                now = now.plusSeconds(1 + random.nextInt(600));
                happened("timer:late");
            }
            if (again) {
                happened("timer:again");
            } else {
                claimed.add(fired);
            }
            happened("timer:" + fired.kind());
            journal.add("     fires " + fired);
            boolean effect;
            switch (fired.kind()) {
                case ATTEMPT_EXPIRY -> {
                    boolean inFlight = attemptInFlight(fired.attemptNo());
                    Decided decided = decide(new ExpireAttemptCommand(ID, fired.attemptNo()));
                    if (inFlight) {
                        assertThat(decided.events()).as("rule 2: an interrupted attempt becomes unknown, never a retry")
                                .first().isInstanceOfSatisfying(PublicationOutcomeUnknownEvent.class,
                                        u -> assertThat(u.cause()).isEqualTo(UnknownCause.INTERRUPTED));
                        if (stepOf.get(fired.attemptNo()) == PublicationStep.CREATE_POST && safety != null) {
                            assertThat(decided.events()).as("a create is sent again with its key, or read back")
                                    .hasSizeLessThanOrEqualTo(2);
                            assertThat(decided.events().stream().skip(1))
                                    .allMatch(PublicationResendDueEvent.class::isInstance);
                        } else if (!stepOf.get(fired.attemptNo()).isRepeatable()) {
                            assertThat(decided.events()).as("only an upload is made due again").hasSize(1);
                        }
                    } else {
                        assertThat(decided.events()).as("an expiry of an attempt not in flight changes nothing")
                                .isEmpty();
                    }
                    commit(decided.events());
                    effect = (Boolean) decided.answer();
                }
                case ATTEMPT_DUE -> {
                    if (fired.trigger() == AttemptTrigger.RETRY) {
                        happened("timer:retry");
                    } else if (fired.trigger() == AttemptTrigger.INITIAL) {
                        happened("timer:scheduled-start");
                    }
                    AttemptDecision decision = start(fired.attemptNo(), fired.trigger(), false, crashAtStart());
                    if (decision == null) {
                        // the sweep's batch rolled back: the claimed row fires again after its lease
                        return;
                    }
                    effect = decision.verdict() != Verdict.REFUSED;
                }
                case READ_BACK_DUE -> effect = readBack(fired);
                default -> throw new IllegalStateException();
            }
            if (!effect && timer != null && timer.version() == fired.version()) {
                timer = null;
            }
        }

        /** A row claimed before fires again: its node died after the claim, or the sweep ran twice. */
        private void fireClaimedAgain() {
            fire(claimed.get(random.nextInt(claimed.size())), true);
        }

        /** The next read is scheduled before this one runs; the last of the schedule deletes the row. */
        private boolean readBack(Timer fired) {
            ReadBackLicence licence = (ReadBackLicence) decide(new StartReadBackCommand(ID, fired.attemptNo()))
                    .answer();
            if (licence == null) {
                return false;
            }
            if (timer != null && timer.version() == fired.version()) {
                if (fired.readNo() < MAX_READS) {
                    write(Kind.READ_BACK_DUE, fired.attemptNo(), null, fired.readNo() + 1,
                            now.plusSeconds(60L * fired.readNo()));
                } else {
                    timer = null;
                }
            }
            reads.add(new ReadBack(licence, fired.readNo()));
            return true;
        }

        // ---- reads at the provider: truthful, or inconclusive ----

        /** What a read at the provider establishes; null when the connection cannot read ({@code none}). */
        private ReconciliationResult lookAtTheProvider(ReadBackLicence licence, String what) {
            if (!canRead) {
                return null;
            }
            if (random.nextInt(4) == 0) {
                return ReconciliationResult.UNKNOWN;
            }
            boolean comment = licence.stepOrPost() == PublicationStep.FIRST_COMMENT;
            if (comment) {
                assertThat(licence.postRef()).as("a comment is read back under its post").isNotNull();
            }
            if (licence.stepOrPost() == PUBLISH_CONTAINER) {
                return throughTheContainer(licence, what);
            }
            return (comment ? comments : posts) > 0 ? ReconciliationResult.FOUND : ReconciliationResult.NOT_FOUND;
        }

        /**
         * An unknown publish is settled by its container's status: {@code PUBLISHED} → FOUND;
         * {@code FINISHED}, {@code EXPIRED}, {@code ERROR} → NOT_FOUND; {@code IN_PROGRESS} → UNKNOWN.
         */
        private ReconciliationResult throughTheContainer(ReadBackLicence licence, String what) {
            assertThat(licence.prepared()).as("an unknown publish is read back through its container").isNotNull();
            assertThat(licence.prepared().id()).as("the container attempt %d published", licence.attemptNo())
                    .isEqualTo(containerOf.get(licence.attemptNo()));
            String status = boxes.get(licence.prepared().id()).read();
            happened(what + ":container-" + status);
            return switch (status) {
                case "PUBLISHED" -> ReconciliationResult.FOUND;
                case "IN_PROGRESS" -> ReconciliationResult.UNKNOWN;
                default -> ReconciliationResult.NOT_FOUND;
            };
        }

        private void readBackAnswers() {
            ReadBack read = reads.remove(random.nextInt(reads.size()));
            if (random.nextInt(10) == 0) {
                journal.add("     node dies during read-back " + read.readNo());
                return;
            }
            ReconciliationResult result = lookAtTheProvider(read.licence(), "read");
            if (result == null) {
                // ReadBackRunner: a connection that cannot read says so once, on the first read; the operator decides
                happened(read.readNo() == 1 ? "read:unavailable" : "read:unavailable-again");
                journal.add("     read-back " + read.readNo() + " of attempt " + read.licence().attemptNo()
                        + ": unavailable");
                if (read.readNo() != 1) {
                    return;
                }
                result = ReconciliationResult.UNKNOWN;
            }
            happened("read:" + (read.licence().stepOrPost() == PublicationStep.FIRST_COMMENT ? "comment-" : "")
                    + result);
            int attemptNo = read.licence().attemptNo();
            Decided decided = decide(new RecordReconciliationCommand(ID, attemptNo, result,
                    result == ReconciliationResult.FOUND ? foundRef(read.licence()) : null, "read " + read.readNo(),
                    now));
            journal.add("     read-back of attempt " + attemptNo + ": " + result + " -> " + decided.events());
            if (attemptNo != latestAttempt()) {
                assertThat(decided.events()).as("rule 5: a read-back of an older attempt changes nothing").isEmpty();
            }
            commit(decided.events());
        }

        private void readFirstAnswers() {
            ReadFirst read = readsFirst.remove(random.nextInt(readsFirst.size()));
            if (random.nextInt(10) == 0) {
                journal.add("     node dies during the read before attempt " + read.decision().attemptNo());
                return;
            }
            ReconciliationResult result = lookAtTheProvider(read.decision().readFirst(), "read-first");
            if (result == null) {
                // AttemptCaller: no way to look, so the operator's decision stands and the attempt is made
                happened("read-first:unavailable");
                journal.add("     read before attempt " + read.decision().attemptNo() + ": unavailable");
                start(read.decision().attemptNo(), read.trigger(), true, crashAtStart());
                return;
            }
            happened("read-first:" + result);
            journal.add("     read before attempt " + read.decision().attemptNo() + ": " + result);
            switch (result) {
                case FOUND -> commit(decide(new RecordReconciliationCommand(ID, read.decision().readFirst().attemptNo(),
                        ReconciliationResult.FOUND, foundRef(read.decision().readFirst()), "found before re-attempting",
                        now)).events());
                // nothing there: ask again with the read done, in a unit of work of its own
                case NOT_FOUND -> {
                    // a NOT_FOUND too: the calls before it made nothing
                    (read.decision().readFirst().stepOrPost() == PublicationStep.FIRST_COMMENT ? mayHaveCommented
                            : mayHaveCreated).clear();
                    start(read.decision().attemptNo(), read.trigger(), true, crashAtStart());
                }
                // inconclusive: the attempt's row asks again later
                case UNKNOWN -> { }
            }
        }

        // ---- people ----

        private void operatorDecides() {
            // abandoning ends a life, so it comes less often than the other decisions
            OperatorDecision decision = random.nextInt(8) == 0 ? OperatorDecision.ABANDON
                    : pick(OperatorDecision.CONFIRM_PUBLISHED, OperatorDecision.CONFIRM_NOT_PUBLISHED,
                    OperatorDecision.REATTEMPT);
            if (!canRead && decision != OperatorDecision.ABANDON) {
                // where Herald cannot read, nothing checks the operator: one who looked at the channel by hand
                boolean there = done(PublicationStep.CREATE_POST) ? comments > 0 : posts > 0;
                decision = there ? OperatorDecision.CONFIRM_PUBLISHED
                        : random.nextBoolean() ? OperatorDecision.CONFIRM_NOT_PUBLISHED : OperatorDecision.REATTEMPT;
            }
            ProviderRef ref = decision == OperatorDecision.CONFIRM_PUBLISHED && random.nextInt(5) > 0 ? POST : null;
            // the request read the post back (PostReferenceCheck) and found it the connection's
            Decided decided = decide(new DecidePublicationCommand(ID, WS, decision, ref, "olga", null, now,
                    ref == null ? null : canRead));
            journal.add("     " + decision + " -> " + decided.events());
            if (!decided.events().isEmpty()) {
                happened("operator:" + decision);
                if (done(PublicationStep.CREATE_POST)) {
                    happened("operator:comment");
                }
            }
            commit(decided.events());
        }

        private void operatorReadBack() {
            Decided decided = decide(new RequestReadBackCommand(ID, WS, "olga", now));
            journal.add("     -> " + decided.events());
            if (!decided.events().isEmpty()) {
                happened("operator:read-back");
            }
            commit(decided.events());
        }

        private void clientExecutes() {
            Decided decided = decide(new ExecutePublicationCommand(ID, WS, "calendar", now));
            journal.add("     -> " + decided.events());
            happened("client:execute");
            commit(decided.events());
        }

        /** The same request again is a no-op; other content under the same key is refused. */
        private void clientRequestsAgain() {
            Content again = random.nextBoolean() ? content : new Content(null, "Other text", null);
            Decided decided = decide(new RequestPublicationCommand(ID, WS, "entry-42", 3, CHANNEL,
                    type, PublicationAction.PUBLISH, again, scheduledAt(), now, "calendar"));
            happened("client:request-again");
            assertThat(decided.events()).as("a repeated request appends nothing").isEmpty();
        }

        /** Another publication on the same connection was refused for a rate limit: this one waits too. */
        private void connectionRateLimited() {
            throttle.holdUntil(WS, CHANNEL, now.plusSeconds(1 + random.nextInt(60)));
        }

        // ---- the publication ----

        /** Sends the command to the publication with this history; a refusal (an exception) appends nothing. */
        private Decided decide(Object command) {
            Capture<List<EventMessage<?>>> events = new Capture<>();
            Capture<ResultMessage<?>> result = new Capture<>();
            ResultValidator<Publication> validator = fixture.given(history).when(command);
            try {
                validator.expectSuccessfulHandlerExecution();
            } catch (AxonAssertionError refused) {
                return new Decided(null, List.of());
            }
            validator.expectEventsMatching(events).expectResultMessageMatching(result);
            return new Decided(result.value.getPayload(),
                    events.value.stream().<Object>map(EventMessage::getPayload).toList());
        }

        /**
         * Rules 1–6 of docs/architecture.md#rules-an-auditor-can-check on the whole history, per once-only step (the post, the comment),
         * and what the provider holds.
         */
        private void checkTheRules() {
            assertThat(posts).as("posts at the provider").isLessThanOrEqualTo(1);
            assertThat(comments).as("comments at the provider").isLessThanOrEqualTo(1);
            assertThat(mayHaveCreated.stream().filter(no -> !sameKeyResends.contains(no)))
                    .as("calls that may have created a post since the last NOT_FOUND, but for same-key re-sends")
                    .hasSizeLessThanOrEqualTo(1);
            assertThat(mayHaveCommented).as("calls that may have created the comment since its last NOT_FOUND")
                    .hasSizeLessThanOrEqualTo(1);
            assertThat(notReadyPolls.stream().filter(mayHaveCreated::contains))
                    .as("a NOT_READY poll is never a call that may have created a post").isEmpty();
            Integer inFlight = null;
            Integer unknownUpload = null;
            int lastAttemptNo = 0;
            PublicationStep lastStep = null;
            boolean postUnknown = false;
            boolean commentUnknown = false;
            boolean postDone = false;
            boolean commentDone = false;
            boolean abandoned = false;
            PublicationResendDueEvent resendDue = null;
            int chainResends = 0;
            Instant chainStartedAt = null;
            int notReadyPolled = 0;
            boolean waitsForOperator = false;
            for (Object event : history) {
                assertThat(abandoned || commentDone).as("nothing after a final state, but %s", event).isFalse();
                if (postDone) {
                    assertThat(content.firstComment()).as("rule 4: after the post only its comment, but %s", event)
                            .isNotNull();
                }
                if (event instanceof PublicationAttemptedEvent a) {
                    PublicationStep step = stepOf.get(a.attemptNo());
                    assertThat(waitsForOperator).as("a publish that failed for good is tried again only when a"
                            + " person asks").isFalse();
                    assertThat(inFlight).as("rule 1: one attempt in flight").isNull();
                    assertThat(a.attemptNo()).as("rule 1: consecutive attempt numbers").isEqualTo(lastAttemptNo + 1);
                    assertThat(a.idempotencyKey()).as("rule 6: the attempt carries its key").isEqualTo(ID.value());
                    assertThat(a.contentHash()).as("rule 6: and its content hash").isEqualTo(content.hash());
                    switch (step.role()) {
                        case PREPARES_POST -> assertThat(postDone).as("uploads come before the post").isFalse();
                        case FOLLOWS_POST -> {
                            assertThat(postDone).as("the comment comes after the post").isTrue();
                            assertThat(commentUnknown).as("rule 3 for the comment: not again after an unknown"
                                    + " outcome without NOT_FOUND").isFalse();
                        }
                        case MAKES_POST -> {
                            if (a.trigger() == AttemptTrigger.RESEND_SAME_KEY) {
                                assertThat(resendDue).as("rule 3's exception: a re-send only when made due").isNotNull();
                                assertThat(resendDue.attemptNo()).isEqualTo(a.attemptNo());
                                assertThat(resendDue.idempotencyKey()).as("the same key").isEqualTo(a.idempotencyKey());
                                assertThat(safety).as("only on client_id or provider_key").isNotNull();
                                assertThat(resendDue.retrySafety()).isEqualTo(safety);
                                chainResends++;
                                assertThat(chainResends).as("re-sends in one chain").isLessThanOrEqualTo(
                                        safety == RetrySafety.PROVIDER_KEY ? 1 : NOT_SENT_MAX_TRIES - 1);
                                if (safety == RetrySafety.PROVIDER_KEY) {
                                    assertThat(a.startedAt()).as("inside the window").isBefore(
                                            chainStartedAt.plus(PROVIDER_KEY_WINDOW));
                                }
                                postUnknown = false;
                            } else {
                                assertThat(postUnknown)
                                        .as("rule 3: no attempt after an unknown outcome without NOT_FOUND").isFalse();
                                chainResends = 0;
                                chainStartedAt = a.startedAt();
                            }
                        }
                    }
                    resendDue = null;
                    inFlight = a.attemptNo();
                    lastAttemptNo = a.attemptNo();
                    lastStep = step;
                    unknownUpload = null;
                } else if (event instanceof PublicationSucceededEvent ok) {
                    assertThat(ok.attemptNo()).as("rule 5: results only for the attempt in flight").isEqualTo(inFlight);
                    assertThat(ok.trace()).as("rule 6").isNotNull();
                    inFlight = null;
                    if (lastStep.followsPost()) {
                        commentDone = true;
                    } else if (lastStep.makesPost()) {
                        postDone = true;
                    } else if (lastStep == CREATE_CONTAINER) {
                        notReadyPolled = 0;
                    }
                } else if (event instanceof PublicationFailedEvent f) {
                    // an upload whose outcome stayed unknown past the retry policy fails, as that attempt's end
                    boolean exhaustedUpload = "upload_outcome_unknown".equals(f.errorCode());
                    assertThat(f.attemptNo()).as("rule 5").isEqualTo(exhaustedUpload ? unknownUpload : inFlight);
                    assertThat(f.trace()).as("rule 6").isNotNull();
                    assertThat(f.retryAt() == null || f.kind().provablyNotExecuted())
                            .as("only a failure that provably did not execute is retried").isTrue();
                    if (f.kind() == FailureKind.NOT_READY && lastStep == PUBLISH_CONTAINER) {
                        // the budget is the container's: polled at most that often, and then it ends
                        notReadyPolled++;
                        assertThat(notReadyPolled).as("NOT_READY polls of one container").isLessThanOrEqualTo(
                                NOT_READY_MAX_TRIES);
                        assertThat(f.retryAt() == null).as("a NOT_READY poll %d of %d ends the publish for an"
                                + " operator only at the end of the budget", notReadyPolled, NOT_READY_MAX_TRIES)
                                .isEqualTo(notReadyPolled == NOT_READY_MAX_TRIES);
                    }
                    if (f.retryAt() == null && lastStep == PUBLISH_CONTAINER) {
                        waitsForOperator = true;
                    }
                    inFlight = null;
                } else if (event instanceof PublicationOutcomeUnknownEvent u) {
                    assertThat(u.attemptNo()).as("rules 2 and 5").isEqualTo(inFlight);
                    assertThat(u.trace()).as("rule 6").isNotNull();
                    inFlight = null;
                    switch (lastStep.role()) {
                        case PREPARES_POST -> unknownUpload = u.attemptNo();
                        case FOLLOWS_POST -> commentUnknown = true;
                        case MAKES_POST -> postUnknown = true;
                    }
                } else if (event instanceof PublicationReconciledEvent r) {
                    assertThat(r.attemptNo()).as("rule 5: a read-back of the latest attempt").isEqualTo(lastAttemptNo);
                    waitsForOperator = false;
                    if (inFlight != null) {
                        // only a duplicate refusal closes an attempt in flight (it is that attempt's answer)
                        assertThat(r.source()).as("rule 2").isEqualTo(ReconciliationSource.PROVIDER_DUPLICATE_SIGNAL);
                        inFlight = null;
                    }
                    boolean comment = postDone && lastStep == PublicationStep.FIRST_COMMENT;
                    switch (r.result()) {
                        case FOUND -> {
                            if (comment) {
                                commentDone = true;
                            } else {
                                postDone = true;
                            }
                        }
                        case NOT_FOUND -> {
                            if (comment) {
                                commentUnknown = false;
                            } else {
                                postUnknown = false;
                            }
                        }
                        case UNKNOWN -> { }
                    }
                } else if (event instanceof PublicationResendDueEvent due) {
                    assertThat(inFlight).as("a re-send is made due only between attempts").isNull();
                    assertThat(postUnknown).as("only an unknown create is sent again").isTrue();
                    assertThat(due.unknownAttemptNo()).isEqualTo(lastAttemptNo);
                    assertThat(due.attemptNo()).isEqualTo(lastAttemptNo + 1);
                    assertThat(due.originalStartedAt()).isEqualTo(chainStartedAt);
                    resendDue = due;
                } else if (event instanceof PublicationStepSkippedEvent skipped) {
                    assertThat(inFlight).as("a step is skipped only between attempts").isNull();
                    assertThat(skipped.step()).isEqualTo(PublicationStep.FIRST_COMMENT);
                    commentDone = true;
                } else if (event instanceof PublicationAbandonedEvent) {
                    assertThat(inFlight).as("rule 2: an attempt is closed only by its outcome").isNull();
                    abandoned = true;
                } else if (event instanceof PublicationExecutionRequestedEvent) {
                    waitsForOperator = false;
                }
            }
        }

        /** Whether the step ended as done: succeeded or found (the comment also when skipped). */
        private boolean done(PublicationStep step) {
            PublicationStep last = null;
            boolean postDone = false;
            boolean commentDone = false;
            for (Object event : history) {
                if (event instanceof PublicationAttemptedEvent a) {
                    last = stepOf.get(a.attemptNo());
                }
                boolean found = event instanceof PublicationReconciledEvent r && r.result() == ReconciliationResult.FOUND;
                boolean succeeded = event instanceof PublicationSucceededEvent;
                if (event instanceof PublicationStepSkippedEvent || (found || succeeded) && last.followsPost()) {
                    commentDone = true;
                } else if (found || succeeded && last.makesPost()) {
                    postDone = true;
                }
            }
            return step.followsPost() ? commentDone : postDone;
        }

        private static ProviderRef foundRef(ReadBackLicence licence) {
            return licence.stepOrPost() == PublicationStep.FIRST_COMMENT ? COMMENT : POST;
        }

        // ---- helpers ----

        private boolean attemptInFlight(int attemptNo) {
            return history.get(history.size() - 1) instanceof PublicationAttemptedEvent a
                    && a.attemptNo() == attemptNo;
        }

        private int latestAttempt() {
            return history.stream().filter(PublicationAttemptedEvent.class::isInstance)
                    .mapToInt(e -> ((PublicationAttemptedEvent) e).attemptNo()).max().orElse(0);
        }

        private Instant scheduledAt() {
            return ((PublicationRequestedEvent) history.get(0)).scheduledAt();
        }

        private void happened(String what) {
            happened.merge(what, 1, Integer::sum);
        }

        @SafeVarargs
        private <T> T pick(T... choices) {
            return choices[random.nextInt(choices.length)];
        }

        private static int attemptNoOf(Object result) {
            if (result instanceof RecordAttemptSucceededCommand c) {
                return c.attemptNo();
            }
            if (result instanceof RecordAttemptFailedCommand c) {
                return c.attemptNo();
            }
            if (result instanceof RecordAttemptOutcomeUnknownCommand c) {
                return c.attemptNo();
            }
            if (result instanceof RecordDuplicateSignalCommand c) {
                return c.attemptNo();
            }
            return ((RecordReconciliationCommand) result).attemptNo();
        }

        private static String describe(Object result) {
            if (result instanceof RecordAttemptSucceededCommand) {
                return "succeeded";
            }
            if (result instanceof RecordAttemptFailedCommand c) {
                return "failed-" + c.kind();
            }
            if (result instanceof RecordAttemptOutcomeUnknownCommand c) {
                return "unknown-" + c.cause();
            }
            if (result instanceof RecordDuplicateSignalCommand) {
                return "duplicate";
            }
            return "reconciliation-" + ((RecordReconciliationCommand) result).result();
        }
    }
}
