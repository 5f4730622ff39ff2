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

    public static void main(String[] args) {
        // Herald runs in closed networks and never phones home.
        if (System.getProperty(UPDATE_CHECK_DISABLED) == null) {
            System.setProperty(UPDATE_CHECK_DISABLED, "true");
        }
        // command-line modes run instead of the server
        if (AuditCommandLine.handles(args)) {
            System.exit(AuditCommandLine.run(args, System.out, System.err));
        }
        SpringApplication.run(HeraldApplication.class, args);
    }

    /** The one source of "now" for commands and sagas, so tests can fix time. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
