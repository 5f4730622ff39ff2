package io.herald.deploy.cli;

import io.herald.query.audit.AuditVerifier;
import io.herald.query.audit.ExportVerifier;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>{@code java -jar herald.jar audit verify-export <file> --public-key <file>} checks an exported
 * file instead, with no database: see {@link #verifyExport}.
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

    private static final String VERIFY_EXPORT = "verify-export";
    private static final String PUBLIC_KEY_OPTION = "--public-key";
    private static final String PARTIAL_OPTION = "--partial";
    private static final String UNSIGNED_TAIL_OPTION = "--allow-unsigned-tail";

    /** Whether the arguments ask for this mode rather than the server. */
    public static boolean handles(String[] args) {
        return args.length >= 2 && "audit".equals(args[0])
                && ("verify".equals(args[1]) || VERIFY_EXPORT.equals(args[1]));
    }

    /** Runs the check; returns the process exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (VERIFY_EXPORT.equals(args[1])) {
            return verifyExport(args, out, err);
        }
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

    /**
     * {@code audit verify-export <file> --public-key <file> [--partial] [--allow-unsigned-tail]}:
     * checks an export's chain, hashes and checkpoint signatures with no database and no server, and
     * that every chain ends at a signed checkpoint (lines after a chain's last one are refused unless
     * {@code --allow-unsigned-tail}, then noted: Herald's exports end with checkpoints of their last
     * lines, so the option is for files exported by earlier versions); exits 0 when they hold, 1 naming the first line that
     * does not, 2 when the check could not run.
     */
    static int verifyExport(String[] args, PrintStream out, PrintStream err) {
        String file = null;
        String keyFile = null;
        boolean partial = false;
        boolean unsignedTail = false;
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals(PUBLIC_KEY_OPTION) && i + 1 < args.length) {
                keyFile = args[++i];
            } else if (args[i].startsWith(PUBLIC_KEY_OPTION + "=")) {
                keyFile = args[i].substring(PUBLIC_KEY_OPTION.length() + 1);
            } else if (args[i].equals(PARTIAL_OPTION)) {
                partial = true;
            } else if (args[i].equals(UNSIGNED_TAIL_OPTION)) {
                unsignedTail = true;
            } else if (file == null && !args[i].startsWith("--")) {
                file = args[i];
            } else {
                err.println("unknown argument " + args[i]);
                return FAILED;
            }
        }
        if (file == null || keyFile == null) {
            err.println("usage: audit verify-export <export.ndjson> --public-key <key file> [--partial]"
                    + " [--allow-unsigned-tail]");
            return FAILED;
        }
        try (BufferedReader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            ExportVerifier verifier = new ExportVerifier(
                    ExportVerifier.keysOf(Files.readString(Path.of(keyFile), StandardCharsets.UTF_8)), partial,
                    unsignedTail);
            ExportVerifier.Result result = verifier.verify(in);
            if (!result.verified()) {
                out.println("line " + result.badLine() + ": refused: " + result.problem());
                return BREACHES;
            }
            result.notes().forEach(note -> out.println("note: " + note));
            out.println("verified: " + result.events() + " events, " + result.checkpoints()
                    + " checkpoints, chain and signatures hold");
            return CLEAN;
        } catch (IOException | RuntimeException e) {
            err.println("audit verify-export could not run: " + rootMessage(e));
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
