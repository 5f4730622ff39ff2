package io.herald.adapters.port;

/**
 * Where a plug-in's adapter reports what a provider answer said about a connection's budget
 * ({@link ProviderUsage}); the command side keeps it in the connection's budget rows. One relay
 * per set of plug-ins ({@link ChannelPlugins#usage()}): until someone listens, reports go nowhere.
 */
public final class UsageReports {

    /** What receives the reports. */
    @FunctionalInterface
    public interface Listener {
        void usage(ChannelConnection connection, ProviderUsage usage);
    }

    private volatile Listener listener;

    public void listen(Listener listener) {
        this.listener = listener;
    }

    /** Reports what an answer on the connection said, if it said anything; never throws. */
    public void report(ChannelConnection connection, ProviderUsage usage) {
        Listener current = listener;
        if (current == null || usage == null || connection == null) {
            return;
        }
        try {
            current.usage(connection, usage);
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(UsageReports.class).warn("usage report for {} not kept: {}",
                    connection, e.toString());
        }
    }
}
