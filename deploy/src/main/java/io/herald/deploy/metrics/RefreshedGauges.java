package io.herald.deploy.metrics;

/**
 * Gauges whose values are read on {@link GaugeRefresher}'s thread and kept, so a scrape only
 * reads memory: a scrape costs no query however often, or by whom, it is asked.
 */
interface RefreshedGauges {

    /** Reads the current values (from the database, the event store) and keeps them for the gauges. */
    void refresh();
}
