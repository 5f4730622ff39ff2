package io.herald.deploy;

import io.herald.deploy.cli.AuditCommandLine;
import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** Assembles Herald from its modules. No domain code lives here. */
@SpringBootApplication(scanBasePackages = "io.herald")
public class HeraldApplication {

    private static final String UPDATE_CHECK_DISABLED = "axoniq.update-checker.disabled";
    private static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    public static void main(String[] args) {
        // Herald runs in closed networks and never phones home.
        if (System.getProperty(UPDATE_CHECK_DISABLED) == null) {
            System.setProperty(UPDATE_CHECK_DISABLED, "true");
        }
        // On one or two cores the common pool gets a parallelism of 1, and CompletableFuture then
        // runs every async stage without an executor on a new thread. The JDK's HttpClient ends
        // each sendAsync with such a stage: a thread started per provider call. Two threads in the
        // common pool take those stages instead. Set before anything touches CompletableFuture.
        if (System.getProperty(COMMON_POOL_PARALLELISM) == null && Runtime.getRuntime().availableProcessors() <= 2) {
            System.setProperty(COMMON_POOL_PARALLELISM, "2");
        }
        // command-line modes run instead of the server
        if (AuditCommandLine.handles(args)) {
            System.exit(AuditCommandLine.run(args, System.out, System.err));
        }
        SpringApplication.run(HeraldApplication.class, args);
    }

    /** The one source of "now" for commands and the publishing core, so tests can fix time. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
