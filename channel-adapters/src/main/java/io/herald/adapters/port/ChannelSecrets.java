package io.herald.adapters.port;

/**
 * A connection's decrypted credentials, held only for the duration of a call: each channel
 * plug-in's own record (a Page token, an app password…). Stored encrypted as that record's JSON;
 * the stored row's channel type says which record to read. A record's {@code toString()} must
 * never show a secret, so an accidental log line leaks nothing.
 */
public interface ChannelSecrets {

    /** No credentials yet: a connection being created. */
    static ChannelSecrets none() {
        return None.INSTANCE;
    }

    /** The absence of credentials. */
    enum None implements ChannelSecrets {
        INSTANCE
    }
}
