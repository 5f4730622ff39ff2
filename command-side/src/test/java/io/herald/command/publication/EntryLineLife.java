package io.herald.command.publication;

import static io.herald.command.publication.EntryLineModel.CHANNEL;
import static io.herald.command.publication.EntryLineModel.ENTRY;
import static io.herald.command.publication.EntryLineModel.POST;
import static io.herald.command.publication.EntryLineModel.WS;
import static io.herald.command.publication.EntryLineModel.state;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.command.publication.EntryLineModel.Op;
import io.herald.command.publication.EntryLineModel.State;
import io.herald.adapters.port.ChannelConnection;
import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.axonframework.test.aggregate.ResultValidator;

/**
 * One entry's line at one channel: a publish, then updates and deletes accepted at random moments,
 * each its own publication asking the {@link EntryOrder} for its turn. The order is a model of the
 * line built from the operations' own events (as the entry lines are kept from them); the provider
 * holds one post, its text's version and whether it was deleted. Calls answer, fail before sending,
 * or leave an unknown outcome that may or may not have landed; read-backs are truthful or
 * inconclusive. Checked after every step: operations act one at a time in the order accepted, no
 * update lands out of order, nothing reaches the post after a delete, at most one create since the
 * last NOT_FOUND, and a converging step is sent again only after a NOT_FOUND, within the retry policy.
 *
 * <p>A line is on one channel ({@link ChannelProfiles}): each operation is planned with the kinds its
 * plug-in declares for the action (on Instagram and Threads the publish is a container, then its
 * publish), an update or delete the channel does not carry out is refused at intake and never
 * called, and an unknown create is sent again with the same key where the channel's retry safety
 * allows it (Bluesky, Mastodon), the provider answering with the post it holds under that key.
 */
final class EntryLineLife {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "page-1", T0, true, 200, null, "trace-1", 120);
    /** The retry policy's tries: a converging step is sent again at most {@code MAX_TRIES - 1} times. */
    private static final int MAX_TRIES = 3;
    private static final int MAX_OPERATIONS = 6;
    static final int MAX_STEPS = 80;

    private final Random random;
    private final ChannelProfiles.Profile profile;
    private final boolean autoReattempt;
    private final List<Op> line = new ArrayList<>();
    private final EntryOrder order = new EntryLineModel.Order(line);
    final List<String> journal = new ArrayList<>();
    final Map<String, Integer> happened = new TreeMap<>();
    private Instant now = T0;
    int steps;
    int providerCalls;

    // the fake provider: one post, the version of its text, and whether it is deleted
    private int posts;
    private long textVersion = 1;
    private boolean deleted;
    private final TreeSet<Integer> mayHaveCreated = new TreeSet<>();
    /** The publish's attempts sent again with the key of the unknown one before them. */
    private final TreeSet<Integer> sameKeyResends = new TreeSet<>();
    /** When the provider first kept the post under the publication's key ({@code client_id}, {@code provider_key}). */
    private Instant keyKeptSince;

    EntryLineLife(long seed, ChannelProfiles.Profile profile) {
        random = new Random(seed);
        this.profile = profile;
        autoReattempt = random.nextBoolean();
        journal.add(profile.name() + ", auto re-attempt " + autoReattempt);
        accept(PublicationAction.PUBLISH, 1);
        assertThat(line).as("the publish is accepted on %s", profile.name()).hasSize(1);
    }

    /** The provider holds the post made. */
    int posts() {
        return posts;
    }

    /**
     * Operations Herald holds as done that did not happen at the provider: a publish with no post, a
     * delete of a post still there, an update whose text (or a later one) is not the post's.
     */
    int lost() {
        int lost = 0;
        for (Op op : line) {
            if (state(op) != State.DONE || op.history.stream().anyMatch(e -> e instanceof PublicationSupersededEvent
                    || e instanceof PublicationNothingToChangeEvent)) {
                continue;
            }
            boolean missing = switch (op.action) {
                case DELETE -> !deleted;
                case UPDATE -> textVersion < op.version;
                default -> posts == 0;
            };
            lost += missing ? 1 : 0;
        }
        return lost;
    }

    void live() {
        while (steps < MAX_STEPS) {
            now = now.plusSeconds(1 + random.nextInt(20));
            List<Runnable> enabled = new ArrayList<>();
            boolean canAccept = line.size() < MAX_OPERATIONS && EntryLineModel.hasPostToChange(line);
            if (canAccept && random.nextInt(3) == 0) {
                enabled.add(this::acceptUpdateOrDelete);
            }
            line.stream().filter(op -> !op.due.isEmpty()).forEach(op -> enabled.add(() -> start(op)));
            line.stream().filter(op -> op.licensed != null).forEach(op -> enabled.add(() -> call(op)));
            line.stream().filter(this::readable).forEach(op -> enabled.add(() -> readBack(op)));
            if (enabled.isEmpty()) {
                if (!canAccept) {
                    return;
                }
                enabled.add(this::acceptUpdateOrDelete);
            }
            steps++;
            enabled.get(random.nextInt(enabled.size())).run();
            checkTheRules();
        }
    }

    private FixtureConfiguration<Publication> fixture() {
        FixtureConfiguration<Publication> fixture = new AggregateTestFixture<>(Publication.class);
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(order);
        fixture.registerInjectableResource(ConnectionHealth.allActive());
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(
                new ChannelConnection(ws, ch, profile.type(), null, null, autoReattempt))));
        fixture.registerInjectableResource(new SameKeyResendPolicy(ChannelProfiles.PLUGINS));
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(MAX_TRIES, MAX_TRIES, Duration.ofSeconds(2), 2.0, 0.0,
                        Duration.ofMinutes(1), null), null)));
        return fixture;
    }

    // ---- intake

    private void acceptUpdateOrDelete() {
        boolean delete = random.nextInt(4) == 0;
        PublicationAction action = delete ? PublicationAction.DELETE : PublicationAction.UPDATE;
        long version = 1 + random.nextInt(8);
        if (line.stream().anyMatch(op -> op.action == action && op.version == version)) {
            return;
        }
        accept(action, version);
    }

    private void accept(PublicationAction action, long version) {
        Content content = action == PublicationAction.DELETE ? new Content(null, null, null)
                : new Content(null, "Text v" + version, null);
        // intake: an action the channel does not carry out is refused before anything is recorded
        if (profile.unsupported(action, content).isPresent()) {
            assertThat(profile.supports(action)).isFalse();
            happened("refused:" + action.wireName());
            journal.add(steps + ". " + action.wireName() + " refused: " + profile.unsupported(action, content).get());
            return;
        }
        if (action.actsOnPost()) {
            happened("accept:" + action.wireName());
        }
        Op op = new Op(action, version);
        op.fixture = fixture();
        Decided decided = decide(op, new RequestPublicationCommand(op.id, WS, ENTRY, version, CHANNEL,
                profile.type(), action, content, null, now, "calendar", profile.kinds(action)));
        assertThat(decided.events()).as("accepting %s", op.name()).hasSize(1);
        line.add(op);
        journal.add(steps + ". accepted " + op.name());
        commit(op, decided.events());
        due(op, 1, AttemptTrigger.INITIAL);
    }

    // ---- the dispatcher and the starts

    private void start(Op op) {
        int attemptNo = op.due.pollFirst();
        AttemptTrigger trigger = op.triggers.remove(attemptNo);
        Decided decided = decide(op, new StartAttemptCommand(op.id, attemptNo, trigger, now, TIMEOUT, false));
        AttemptDecision decision = (AttemptDecision) decided.answer();
        journal.add(steps + ". start " + op.name() + " #" + attemptNo + " " + trigger + " -> " + decision.verdict()
                + (decision.refusal() != null ? " " + decision.refusal() : ""));
        commit(op, decided.events());
        if (decision.verdict() == Verdict.START) {
            boolean again = trigger == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND;
            happened("start:" + decision.stepOrPost().wireName() + (again ? "-again" : ""));
            op.licensed = decision;
        } else if (decision.verdict() == Verdict.REFUSED && Publication.WAITING_FOR_ENTRY.equals(decision.refusal())) {
            // the settling of the earlier operation wakes this one: its row stays due
            happened("turn:wait");
            due(op, attemptNo, trigger);
        } else if (decision.verdict() == Verdict.READ_FIRST) {
            // AttemptStarter reads before a re-attempt of a create that may have landed
            happened("start:read-first");
            if (posts > 0) {
                commit(op, decide(op, new RecordReconciliationCommand(op.id, decision.readFirst().attemptNo(),
                        ReconciliationResult.FOUND, POST, "found before re-attempting", now)).events());
            } else {
                // nothing there: the calls before it made nothing
                mayHaveCreated.clear();
                Decided again = decide(op, new StartAttemptCommand(op.id, attemptNo, trigger, now, TIMEOUT, true));
                commit(op, again.events());
                if (((AttemptDecision) again.answer()).verdict() == Verdict.START) {
                    op.licensed = (AttemptDecision) again.answer();
                }
            }
        } else {
            happened("refused:" + decision.refusal());
        }
    }

    // ---- the provider and the recorder

    private void call(Op op) {
        AttemptDecision licence = op.licensed;
        op.licensed = null;
        providerCalls++;
        int earlierOpen = (int) line.subList(0, line.indexOf(op)).stream().filter(o -> state(o) == State.OPEN).count();
        assertThat(earlierOpen).as("%s calls while an operation accepted before it is open", op.name()).isZero();
        assertThat(line.stream().filter(o -> o != op && inFlight(o))).as("one operation at a time").isEmpty();
        PublicationStep step = licence.stepOrPost();
        happened("call:" + step.wireName());
        if (op.action.actsOnPost()) {
            assertThat(licence.target()).as("%s acts on the entry's post", op.name()).isEqualTo(POST);
            assertThat(deleted).as("no step after a delete: %s reached a deleted post", op.name()).isFalse();
        }
        int dice = random.nextInt(10);
        boolean lands = dice < 4 || dice >= 7 && random.nextBoolean();
        if (step.makesPost() && !op.action.actsOnPost() && (dice < 4 || dice >= 7)) {
            // an answer that does not prove the call did nothing
            mayHaveCreated.add(licence.attemptNo());
        }
        if (lands) {
            land(op, step);
        }
        Object answer;
        if (dice < 4) {
            answer = new RecordAttemptSucceededCommand(op.id, licence.attemptNo(), POST, TRACE, now);
        } else if (dice < 7) {
            FailureKind kind = dice == 6 ? FailureKind.REJECTED : FailureKind.NOT_SENT;
            answer = new RecordAttemptFailedCommand(op.id, licence.attemptNo(), kind, "x", "x", TRACE, null, now);
        } else {
            answer = new RecordAttemptOutcomeUnknownCommand(op.id, licence.attemptNo(), UnknownCause.READ_TIMEOUT,
                    "x", TRACE, now);
        }
        journal.add(steps + ". call " + step.wireName() + " of " + op.name() + (lands ? ", lands" : ", does not land")
                + " -> " + answer.getClass().getSimpleName());
        commit(op, decide(op, answer).events());
    }

    private void land(Op op, PublicationStep step) {
        switch (step.wireName()) {
            case "create_post" -> {
                if (keepsTheKey()) {
                    // the provider knows the record key or idempotency key: the same post again
                    happened("key:kept");
                } else {
                    posts++;
                    keyKeptSince = now;
                }
            }
            // a container makes no post; only its publish does
            case "create_container" -> happened("container:created");
            case "publish_container" -> posts++;
            case "update_post" -> {
                assertThat(op.version).as("no update applied out of order: %s after text v%d", op.name(),
                        textVersion).isGreaterThanOrEqualTo(textVersion);
                textVersion = op.version;
            }
            case "delete_post" -> deleted = true;
            default -> throw new IllegalStateException("no " + step + " in this model");
        }
    }

    /** Whether a create with the publication's key is answered with the post the provider already holds. */
    private boolean keepsTheKey() {
        RetrySafety safety = profile.resendLicence().map(SameKeyResendPolicy.Licence::retrySafety).orElse(null);
        return posts > 0 && (safety == RetrySafety.CLIENT_ID
                || safety == RetrySafety.PROVIDER_KEY && now.isBefore(keyKeptSince.plus(Duration.ofHours(1))));
    }

    private boolean readable(Op op) {
        Object last = op.history.get(op.history.size() - 1);
        // the read-back row stays while a same-key re-send is due: it settles the create if the re-send never starts
        return last instanceof PublicationOutcomeUnknownEvent || last instanceof PublicationResendDueEvent
                || last instanceof PublicationReconciledEvent r && r.result() == ReconciliationResult.UNKNOWN;
    }

    private void readBack(Op op) {
        ReadBackLicence licence = (ReadBackLicence) decide(op, new StartReadBackCommand(op.id, lastAttemptNo(op)))
                .answer();
        assertThat(licence).as("a read-back of %s after an unknown outcome", op.name()).isNotNull();
        ReconciliationResult result;
        if (random.nextInt(4) == 0) {
            result = ReconciliationResult.UNKNOWN;
        } else {
            result = switch (op.action) {
                case UPDATE -> deleted ? ReconciliationResult.UNKNOWN : textVersion == op.version
                        ? ReconciliationResult.FOUND : ReconciliationResult.NOT_FOUND;
                case DELETE -> deleted ? ReconciliationResult.FOUND : ReconciliationResult.NOT_FOUND;
                default -> posts > 0 ? ReconciliationResult.FOUND : ReconciliationResult.NOT_FOUND;
            };
        }
        happened("read:" + op.action.wireName() + "-" + result);
        journal.add(steps + ". read-back of " + op.name() + ": " + result);
        commit(op, decide(op, new RecordReconciliationCommand(op.id, licence.attemptNo(), result,
                result == ReconciliationResult.FOUND ? POST : null, "read", now)).events());
    }

    // ---- the events: what the timer rows and the dispatcher make due

    private void commit(Op op, List<Object> events) {
        for (Object event : events) {
            op.history.add(event);
            if (event instanceof PublicationNextStepDueEvent next) {
                // the container on record (or made again after an unknown one): the dispatcher asks for the next step
                due(op, next.attemptNo(), AttemptTrigger.NEXT_STEP);
            } else if (event instanceof PublicationResendDueEvent resend) {
                happened("resend:" + resend.retrySafety().wireName());
                sameKeyResends.add(resend.attemptNo());
                due(op, resend.attemptNo(), AttemptTrigger.RESEND_SAME_KEY);
            } else if (event instanceof PublicationFailedEvent failed && failed.retryAt() != null) {
                due(op, failed.attemptNo() + 1, AttemptTrigger.RETRY);
            } else if (event instanceof PublicationReconciledEvent r && r.result() == ReconciliationResult.NOT_FOUND) {
                if (!op.action.actsOnPost()) {
                    mayHaveCreated.clear();
                }
                due(op, r.attemptNo() + 1, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND);
            } else if (event instanceof PublicationSupersededEvent) {
                happened("superseded");
            } else if (event instanceof PublicationNothingToChangeEvent) {
                happened("nothing-to-change");
            }
        }
    }

    private void due(Op op, int attemptNo, AttemptTrigger trigger) {
        op.due.add(attemptNo);
        op.triggers.put(attemptNo, trigger);
    }

    // ---- the rules

    private void checkTheRules() {
        assertThat(posts).as("posts at the provider").isLessThanOrEqualTo(1);
        assertThat(mayHaveCreated.stream().filter(no -> !sameKeyResends.contains(no)))
                .as("calls that may have created the post since the last NOT_FOUND, but for same-key re-sends")
                .hasSizeLessThanOrEqualTo(1);
        boolean deleteDone = false;
        long applied = 0;
        for (Op op : line) {
            long attempts = op.history.stream().filter(PublicationAttemptedEvent.class::isInstance).count();
            long resends = op.history.stream().filter(e -> e instanceof PublicationAttemptedEvent a
                    && a.trigger() == AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND).count();
            if (op.action.actsOnPost()) {
                assertThat(resends).as("%s sent again at most %d times", op.name(), MAX_TRIES - 1)
                        .isLessThanOrEqualTo(MAX_TRIES - 1);
                if (deleteDone) {
                    assertThat(attempts).as("no step after a delete: %s attempted", op.name()).isZero();
                }
                if (op.history.stream().anyMatch(PublicationSupersededEvent.class::isInstance)) {
                    assertThat(attempts).as("superseded %s made no call", op.name()).isZero();
                    assertThat(op.version).as("superseded %s is older than v%d", op.name(), applied)
                            .isLessThan(applied);
                }
            }
            if (state(op) == State.DONE) {
                if (op.action == PublicationAction.DELETE) {
                    deleteDone = true;
                } else {
                    applied = Math.max(applied, op.version);
                }
            }
        }
    }

    // ---- helpers

    private boolean inFlight(Op op) {
        return op.history.get(op.history.size() - 1) instanceof PublicationAttemptedEvent;
    }

    private static int lastAttemptNo(Op op) {
        return op.history.stream().filter(PublicationAttemptedEvent.class::isInstance)
                .mapToInt(e -> ((PublicationAttemptedEvent) e).attemptNo()).max().orElse(0);
    }

    private void happened(String what) {
        happened.merge(what, 1, Integer::sum);
    }

    private record Decided(Object answer, List<Object> events) {
    }

    /** The command to the publication with this history; a refusal (an exception) appends nothing. */
    private Decided decide(Op op, Object command) {
        Capture<List<EventMessage<?>>> events = new Capture<>();
        Capture<ResultMessage<?>> result = new Capture<>();
        ResultValidator<Publication> validator = op.fixture.given(op.history).when(command);
        validator.expectResultMessageMatching(result);
        if (result.value.isExceptional()) {
            journal.add("     refused: " + result.value.exceptionResult());
            return new Decided(null, List.of());
        }
        validator.expectEventsMatching(events);
        return new Decided(result.value.getPayload(), events.value.stream().<Object>map(EventMessage::getPayload)
                .toList());
    }
}
