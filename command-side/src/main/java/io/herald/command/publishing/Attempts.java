package io.herald.command.publishing;

/** Runs an attempt the saga decided is due. */
public interface Attempts {

    /**
     * Starts the attempt once the caller's unit of work has committed, never on the calling
     * thread. Whatever happens is recorded as events on the publication; nothing comes back here.
     */
    void run(AttemptPlan plan);
}
