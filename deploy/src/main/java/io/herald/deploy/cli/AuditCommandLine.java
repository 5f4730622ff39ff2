package io.herald.deploy.cli;

import io.herald.query.audit.AuditVerifier;
import io.herald.query.audit.Breach;
import io.herald.query.audit.VerificationReport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code java -jar herald.jar audit verify [--workspace=acme] [--spring.datasource.url=…]}: replays
 * every publication stream against rules 1–5 of docs/architecture.md#rules-an-auditor-can-check, prints the breaches or a one-line
 * summary, and exits 0 when clean, 1 when a rule is broken, 2 when the check could not run.
 *
 * <p>Without {@code spring.datasource.url} it opens the embedded database in the data folder, which
 * only one process can hold: stop the server first, or point both at the same PostgreSQL.
 */
public final class AuditCommandLine {

    public static final int CLEAN = 0;
    public static final int BREACHES = 1;
    public static final int FAILED = 2;

    private static final String WORKSPACE_OPTION = "--workspace=";

    private AuditCommandLine() {
    }

    /** Whether the arguments ask for this mode rather than the server. */
    public static boolean handles(String[] args) {
        return args.length >= 2 && "audit".equals(args[0]) && "verify".equals(args[1]);
    }

    /** Runs the check; returns the process exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String workspace = null;
        List<String> springArgs = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            if (args[i].startsWith(WORKSPACE_OPTION)) {
                workspace = args[i].substring(WORKSPACE_OPTION.length());
            } else {
                springArgs.add(args[i]);
            }
        }
        SpringApplicationBuilder application = new SpringApplicationBuilder(AuditVerifyConfiguration.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                // the report is the output; framework chatter only when something is wrong
                .properties("logging.level.root=warn");
        try (ConfigurableApplicationContext context = application.run(springArgs.toArray(String[]::new))) {
            VerificationReport report = context.getBean(AuditVerifier.class).verify(workspace);
            String scope = workspace == null ? "" : " in workspace " + workspace;
            if (report.clean()) {
                out.println("clean: " + report.publications() + " publications, " + report.events() + " events"
                        + scope);
                return CLEAN;
            }
            for (Breach breach : report.breaches()) {
                out.println(breach.publicationId() + "  rule " + breach.rule() + "  sequence " + breach.sequence()
                        + "  " + breach.detail());
            }
            out.println(report.breaches().size() + " breaches: " + report.publications() + " publications, "
                    + report.events() + " events" + scope);
            return BREACHES;
        } catch (RuntimeException e) {
            err.println("audit verify could not run: " + rootMessage(e));
            return FAILED;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
