package io.herald.command.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Connection budgets on a real PostgreSQL, taken by two "nodes" (each its own pool of
 * connections) from many threads at once: a connection starts exactly as many attempts as its
 * documented quota allows in a window, whichever node starts them; the rest are told when the
 * window ends; a provider's "wait" reported on one node holds the other; and one workspace's
 * budget never holds another's.
 */
class ConnectionBudgetsTest {

    private static final ChannelType LINKEDIN = ChannelType.of("linkedin");
    private static final ChannelType FACEBOOK = ChannelType.of("facebook");
    private static final Instant NOW = Instant.parse("2026-12-05T22:00:00Z");
    private static final Instant MIDNIGHT = Instant.parse("2026-12-06T00:00:00Z");

    /** The local PostgreSQL every test of this build may use; this test makes its own database there. */
    private static final String SERVER = System.getenv().getOrDefault("HERALD_TEST_PG",
            "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
    private static final String DATABASE = "herald_budgets_" + ProcessHandle.current().pid() + "_"
            + System.nanoTime() % 1_000_000;

    private static String database;
    private static ExecutorService threads;
    private static Node nodeA;
    private static Node nodeB;
    private static Node budgetedA;
    private static Node budgetedB;
    /** Facebook with 3 calls a minute, on a monotonic clock the test moves: how long a batch runs. */
    private static final AtomicLong NANOS = new AtomicLong();
    private static Node perMinute;

    /** One node's view of the database: its own connections and transactions. */
    private record Node(ConnectionBudgets budgets, TransactionTemplate transactions,
                        DataSourceTransactionManager transactionManager) {

        static Node on(String url, ChannelPlugins plugins) {
            return on(url, plugins, System::nanoTime);
        }

        static Node on(String url, ChannelPlugins plugins, LongSupplier nanoTime) {
            DriverManagerDataSource dataSource = new DriverManagerDataSource(url);
            DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(dataSource);
            return new Node(new ConnectionBudgets(new JdbcTemplate(dataSource), plugins, nanoTime),
                    new TransactionTemplate(transactionManager), transactionManager);
        }

        Optional<Instant> take(String ws, String channel, ChannelType type, Instant now) {
            return transactions.execute(tx -> budgets.take(new WorkspaceId(ws), new ChannelId(channel), type, now));
        }

        /** The starts of one batch (one unit of work and transaction, as the dispatcher's): the ones that may start. */
        int batch(String ws, String channel, ChannelType type, List<Instant> nows, Runnable beforeCommit) {
            UnitOfWork<?> unitOfWork = DefaultUnitOfWork.startAndGet(null);
            unitOfWork.attachTransaction(new SpringTransactionManager(transactionManager));
            int started = 0;
            for (Instant now : nows) {
                if (budgets.take(new WorkspaceId(ws), new ChannelId(channel), type, now).isEmpty()) {
                    started++;
                }
            }
            beforeCommit.run();
            unitOfWork.commit();
            return started;
        }
    }

    @BeforeAll
    static void migrate() throws IOException {
        new JdbcTemplate(new DriverManagerDataSource(SERVER)).execute("CREATE DATABASE " + DATABASE);
        database = SERVER.replace("/postgres?", "/" + DATABASE + "?");
        String sql;
        try (InputStream in = ConnectionBudgetsTest.class.getResourceAsStream(
                "/db/migration/command/V2026_12_05_62__connection_budget.sql")) {
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        new JdbcTemplate(new DriverManagerDataSource(database)).execute(sql);
        ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());
        // Facebook with the Graph API's app budget of 200 calls an hour
        ChannelPlugins withFacebookBudget = ChannelAdaptersConfiguration.create(PluginProperties.of(
                java.util.Map.of("herald.channels.facebook.budget-calls", "200")),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());
        nodeA = Node.on(database, plugins);
        nodeB = Node.on(database, plugins);
        budgetedA = Node.on(database, withFacebookBudget);
        budgetedB = Node.on(database, withFacebookBudget);
        perMinute = Node.on(database, ChannelAdaptersConfiguration.create(PluginProperties.of(java.util.Map.of(
                "herald.channels.facebook.budget-calls", "3", "herald.channels.facebook.budget-window", "1m")),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC()), NANOS::get);
        threads = Executors.newFixedThreadPool(8);
    }

    @AfterAll
    static void stop() {
        threads.shutdownNow();
        new JdbcTemplate(new DriverManagerDataSource(SERVER)).execute("DROP DATABASE IF EXISTS " + DATABASE
                + " WITH (FORCE)");
    }

    @Test
    void twoNodesStartExactlyTheDailyQuotaOfALinkedInMemberAndNoMore() throws Exception {
        int requests = 200;
        List<Callable<Optional<Instant>>> takes = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            Node node = i % 2 == 0 ? nodeA : nodeB;
            takes.add(() -> node.take("acme", "li-main", LINKEDIN, NOW));
        }
        int started = 0;
        List<Instant> waits = new ArrayList<>();
        for (Future<Optional<Instant>> result : threads.invokeAll(takes)) {
            Optional<Instant> wait = result.get();
            if (wait.isEmpty()) {
                started++;
            } else {
                waits.add(wait.get());
            }
        }
        assertThat(started).as("starts within LinkedIn's 150 posts a day").isEqualTo(150);
        assertThat(waits).hasSize(requests - 150).allMatch(MIDNIGHT::equals);
        // the next day has a full budget again
        assertThat(nodeB.take("acme", "li-main", LINKEDIN, MIDNIGHT.plusSeconds(1))).isEmpty();
    }

    @Test
    void oneWorkspacesBudgetNeverHoldsAnother() {
        for (int i = 0; i < 150; i++) {
            assertThat(nodeA.take("busy", "li", LINKEDIN, NOW)).isEmpty();
        }
        assertThat(nodeA.take("busy", "li", LINKEDIN, NOW)).contains(MIDNIGHT);
        assertThat(nodeB.take("quiet", "li", LINKEDIN, NOW)).as("another workspace's connection").isEmpty();
        assertThat(nodeB.take("busy", "li-other", LINKEDIN, NOW)).as("another connection").isEmpty();
    }

    @Test
    void aProvidersWaitReportedOnOneNodeHoldsEveryNode() {
        Instant until = NOW.plusSeconds(90);
        assertThat(nodeB.take("acme", "fb-main", FACEBOOK, NOW)).as("a channel without quotas").isEmpty();
        nodeA.budgets().block(new WorkspaceId("acme"), new ChannelId("fb-main"), until);
        assertThat(nodeB.take("acme", "fb-main", FACEBOOK, NOW.plusSeconds(10))).contains(until);
        // a shorter wait reported later does not shorten it
        nodeB.budgets().block(new WorkspaceId("acme"), new ChannelId("fb-main"), NOW.plusSeconds(20));
        assertThat(nodeA.take("acme", "fb-main", FACEBOOK, NOW.plusSeconds(30))).contains(until);
        assertThat(nodeA.take("acme", "fb-main", FACEBOOK, until)).as("after the wait").isEmpty();
    }

    @Test
    void theProvidersUsageShrinksTheBudgetAndARateLimitSpendsIt() {
        // a Facebook budget of 200 calls an hour
        Instant hour = Instant.parse("2026-12-05T22:00:00Z");
        Instant next = hour.plusSeconds(3600);
        for (int i = 0; i < 10; i++) {
            assertThat(budgetedA.take("usage", "fb", FACEBOOK, hour.plusSeconds(i))).isEmpty();
        }
        // other apps on the Page: the answer says 90 % used, so 20 calls are left, not 190
        budgetedB.budgets().observe(new WorkspaceId("usage"), new ChannelId("fb"), FACEBOOK,
                io.herald.adapters.port.ProviderUsage.percent(90, null, hour.plusSeconds(10)), hour.plusSeconds(11));
        int started = 0;
        while (budgetedA.take("usage", "fb", FACEBOOK, hour.plusSeconds(20)).isEmpty()) {
            started++;
        }
        assertThat(started).isEqualTo(20);
        assertThat(budgetedB.take("usage", "fb", FACEBOOK, hour.plusSeconds(21))).contains(next);

        // a rate-limit answer in the next window spends it at once, and holds the connection until its wait
        assertThat(budgetedA.take("usage", "fb", FACEBOOK, next.plusSeconds(1))).isEmpty();
        budgetedB.budgets().refused(new WorkspaceId("usage"), new ChannelId("fb"), next.plusSeconds(30),
                next.plusSeconds(2));
        assertThat(budgetedA.take("usage", "fb", FACEBOOK, next.plusSeconds(40))).contains(next.plusSeconds(3600));

        // a spent budget with the provider's reset time holds until that time
        budgetedA.budgets().observe(new WorkspaceId("usage"), new ChannelId("md"), ChannelType.of("mastodon"),
                io.herald.adapters.port.ProviderUsage.remaining(0, NOW.plusSeconds(300), NOW), NOW);
        assertThat(budgetedB.take("usage", "md", ChannelType.of("mastodon"), NOW.plusSeconds(1)))
                .contains(NOW.plusSeconds(300));
    }

    @Test
    void aBatchCountsItsStartsInTheWindowItsCallsGoOutIn() {
        Instant minute = Instant.parse("2026-12-05T22:10:00Z");
        Instant next = minute.plusSeconds(60);
        // a batch that starts 3 near the end of a minute and commits 5 s later: its calls go out in the next minute
        assertThat(perMinute.batch("late", "fb", FACEBOOK, List.of(minute.plusSeconds(50), minute.plusSeconds(51),
                minute.plusSeconds(52)), () -> NANOS.addAndGet(java.time.Duration.ofSeconds(13).toNanos())))
                .isEqualTo(3);
        assertThat(perMinute.take("late", "fb", FACEBOOK, next.plusSeconds(1))).as("the next minute holds them")
                .contains(next.plusSeconds(60));

        // a batch during which a minute ends: its starts before the end go out with the rest, in the new minute
        Instant third = next.plusSeconds(60);
        assertThat(perMinute.batch("across", "fb", FACEBOOK, List.of(next.plusSeconds(30), next.plusSeconds(31),
                third.plusSeconds(1), third.plusSeconds(2)), () -> { })).as("2 before the end, 1 after").isEqualTo(3);
        assertThat(perMinute.take("across", "fb", FACEBOOK, third.plusSeconds(3))).contains(third.plusSeconds(60));

        // a start just before a minute ends may reach the provider after it: it counts in the next minute
        Instant fourth = third.plusSeconds(60);
        assertThat(perMinute.take("edge", "fb", FACEBOOK, third.plusMillis(59_500))).isEmpty();
        assertThat(perMinute.take("edge", "fb", FACEBOOK, fourth.plusSeconds(1))).isEmpty();
        assertThat(perMinute.take("edge", "fb", FACEBOOK, fourth.plusSeconds(2))).isEmpty();
        assertThat(perMinute.take("edge", "fb", FACEBOOK, fourth.plusSeconds(3))).contains(fourth.plusSeconds(60));
        // one early in a minute counts in it
        Instant fifth = fourth.plusSeconds(60);
        for (int i = 0; i < 3; i++) {
            assertThat(perMinute.take("early", "fb", FACEBOOK, fifth.plusSeconds(1))).isEmpty();
        }
        assertThat(perMinute.take("early", "fb", FACEBOOK, fifth.plusSeconds(2))).contains(fifth.plusSeconds(60));
    }
}
