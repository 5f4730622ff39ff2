package io.herald.contracts.publication;

import java.util.Map;

/**
 * Metadata a publication puts on its attempt and success events while none of its outcomes was
 * ever unknown. No reconciliation can be following such a publication (one starts only at an
 * unknown outcome), so the reconciliation saga passes these events by without looking up a saga
 * for them. Events without the key, including every event written before it existed, reach the
 * saga as always.
 */
public final class ReconciliationHint {

    public static final String KEY = "reconciliation";
    public static final String NEVER_OPENED = "never-opened";

    private ReconciliationHint() {
    }

    /** The metadata of an event of a publication whose outcome was never unknown. */
    public static Map<String, String> neverOpened() {
        return Map.of(KEY, NEVER_OPENED);
    }

    /** Whether an event's metadata says no reconciliation can be following its publication. */
    public static boolean neverOpened(Map<String, ?> metaData) {
        return NEVER_OPENED.equals(metaData.get(KEY));
    }
}
