package io.herald.reconciliation;

/** Reads back what an attempt left at the provider and records the result on the publication. */
public interface ReadBacks {

    /** Runs after the caller's unit of work committed, off the calling thread. */
    void run(ReadBackPlan plan);
}
