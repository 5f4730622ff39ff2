package io.herald.query.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.platform.threads.BackgroundThreads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Full re-verifications from the first event, for the system: the whole store's publication
 * streams, page by page, in a background thread, never inside an HTTP request. What a job finds is
 * written to the breach table as it goes, a stream's verdict replacing the stored one unless the
 * live verifier stored one on more of that stream meanwhile, so a job repairs what the live
 * verifier cannot see (an event changed in place, a verifier fixed since) without ever undoing a
 * newer finding. It then checks the audit chain against the store and reports each chain break
 * (rule {@value Breach#CHAIN_BREAK}). The job's row shows its progress.
 */
@Component
public class VerificationJobs {

    private static final Logger log = LoggerFactory.getLogger(VerificationJobs.class);
    /** Streams written per transaction, and how often the job's progress row is updated. */
    private static final int STREAMS_PER_WRITE = 500;
    /**
     * A running job writes its progress every few thousand events (seconds apart; counting the
     * store first takes longer on a large one): silent this long, it ran on a node that stopped.
     */
    static final Duration SILENT_AFTER = Duration.ofMinutes(10);

    private final EventStoreReader store;
    private final BreachRepository breaches;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final ObjectMapper json;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(BackgroundThreads.named("herald-audit-verify"));

    VerificationJobs(EventStoreReader store, BreachRepository breaches, PlatformTransactionManager transactionManager,
                     Clock clock, ObjectMapper objectMapper) {
        this.json = objectMapper;
        this.store = store;
        this.breaches = breaches;
        this.transactions = new TransactionTemplate(transactionManager);
        this.clock = clock;
    }

    /** Starts a job, or answers the one already running: two full scans at once would only compete. */
    public synchronized VerificationJob start() {
        Instant now = clock.instant();
        Optional<VerificationJob> running = breaches.runningJob(now.minus(SILENT_AFTER), now);
        if (running.isPresent()) {
            return running.get();
        }
        String jobId = "verify_" + UUID.randomUUID().toString().replace("-", "");
        breaches.createJob(jobId, now);
        worker.execute(() -> run(jobId));
        return breaches.findJob(jobId).orElseThrow();
    }

    public Optional<VerificationJob> find(String jobId) {
        return breaches.findJob(jobId);
    }

    private void run(String jobId) {
        try {
            long total = store.publicationEventCount();
            breaches.progress(jobId, 0, total, clock.instant());
            EntryLineCheck lines = new EntryLineCheck();
            List<StreamVerdict> verdicts = new ArrayList<>();
            StreamVerdict.Reading[] current = new StreamVerdict.Reading[1];
            long[] done = {0};
            store.forEachPublicationStream(null, event -> {
                lines.accept(event);
                if (current[0] == null || !current[0].publicationId().equals(event.aggregateId())) {
                    if (current[0] != null) {
                        verdicts.add(current[0].verdict());
                        if (verdicts.size() >= STREAMS_PER_WRITE) {
                            write(jobId, verdicts, done[0], total);
                        }
                    }
                    current[0] = new StreamVerdict.Reading(event.aggregateId());
                }
                current[0].accept(event);
                done[0]++;
            });
            if (current[0] != null) {
                verdicts.add(current[0].verdict());
            }
            write(jobId, verdicts, done[0], Math.max(total, done[0]));
            // breaches across an entry line only grow with later events: the job adds, and removes none
            breaches.insert(lines.finish().stream()
                    .map(b -> new LocatedBreach(lines.workspaceOf(b.publicationId()), b)).toList());
            breaches.insert(chainBreaks());
            breaches.finishJob(jobId, VerificationJob.Status.DONE, clock.instant(), null);
            log.info("re-verification {} done: {} publication events", jobId, done[0]);
        } catch (RuntimeException failure) {
            log.error("re-verification {} failed", jobId, failure);
            breaches.finishJob(jobId, VerificationJob.Status.FAILED, clock.instant(),
                    failure.getClass().getSimpleName());
        }
    }

    /** The whole chain against the store as it is now ({@link ChainCheck}), from its first row. */
    private List<LocatedBreach> chainBreaks() {
        ChainCheck check = new ChainCheck(json, workspace -> AuditChain.ORIGIN);
        store.forEachLink(0, Long.MAX_VALUE, check::accept);
        return check.breaches();
    }

    private void write(String jobId, List<StreamVerdict> verdicts, long done, long total) {
        List<StreamVerdict> batch = List.copyOf(verdicts);
        verdicts.clear();
        transactions.executeWithoutResult(status -> {
            breaches.saveStreams(batch);
            breaches.progress(jobId, done, total, clock.instant());
        });
    }
}
