package io.herald.contracts.publication;

/** Why Herald cannot tell whether a provider call took effect. */
public enum UnknownCause {
    READ_TIMEOUT,
    CONNECTION_RESET,
    SERVER_ERROR,
    UNPARSABLE_RESPONSE,
    /** The attempt's deadline passed with no recorded result: the process died or the call hung. */
    INTERRUPTED
}
