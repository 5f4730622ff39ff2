package io.herald.command.publishing;

import io.herald.contracts.publication.AttemptTrigger;

/** Payload of the saga's "an attempt is due" deadline. */
public record AttemptDue(AttemptTrigger trigger) {

    static final String NAME = "publication-attempt-due";
}
