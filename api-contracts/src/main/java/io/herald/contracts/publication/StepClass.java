package io.herald.contracts.publication;

/**
 * What a step kind may do twice (docs/architecture.md#steps-and-step-kinds): the question every
 * decision after an unknown outcome asks first.
 */
public enum StepClass {
    /** Doing it twice is invisible to the audience (an upload no post uses): sent again after an unknown outcome. */
    REPEATABLE,
    /** Doing it twice is visible (a second post, a second comment): read back, else an operator decides. */
    ONCE_ONLY,
    /** Doing it twice leaves the same result (an edit, a delete): read back, then sent again while it is missing. */
    CONVERGING
}
