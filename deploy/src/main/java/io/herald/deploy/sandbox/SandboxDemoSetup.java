package io.herald.deploy.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.sandbox.SandboxDemo;
import io.herald.command.channel.ChannelConnectFlows;
import io.herald.command.channel.ChannelConnectionRequest;
import io.herald.command.channel.ChannelConnectionService;
import io.herald.command.channel.CapabilityProbes;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.platform.data.DataDirectory;
import io.herald.access.ApiKeyStore;
import io.herald.access.Role;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The demo run: registers the sandbox's demo credentials and a {@code demo} workspace whose
 * channel connections point at them, one per case an operator should see (read-back available,
 * a User token that cannot read, LinkedIn without the read scope, WordPress with and without the
 * mu-plugin). The connections a user would make with the provider's "Connect" button
 * ({@link SandboxDemo#throughProviders()}: {@code fb-demo}, {@code li-demo}, {@code ig-demo},
 * {@code threads-demo}) are made through that
 * very flow — the connect started, the sandbox's consent page (approving at once) and Herald's own
 * callback called over HTTP as the admin's browser would, the Page chosen — and the others with the
 * {@code PUT} of their fields. The sandbox keeps its tokens in memory only, so every start connects
 * them anew.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class SandboxDemoSetup {

    static final WorkspaceId DEMO = new WorkspaceId("demo");
    private static final Logger log = LoggerFactory.getLogger(SandboxDemoSetup.class);

    private static final String ACTOR = "herald-demo";

    private final SandboxDemo demo;
    private final ChannelConnectFlows flows;
    private final ChannelConnectionService connections;
    private final CapabilityProbes probes;
    private final ApiKeyStore keys;
    private final Environment environment;
    private final ObjectMapper json;

    SandboxDemoSetup(SandboxDemo demo, ChannelConnectFlows flows, ChannelConnectionService connections,
                     CapabilityProbes probes, ApiKeyStore keys, Environment environment, ObjectMapper json) {
        this.demo = demo;
        this.flows = flows;
        this.connections = connections;
        this.probes = probes;
        this.keys = keys;
        this.environment = environment;
        this.json = json;
    }

    @EventListener
    void register(ApplicationReadyEvent event) {
        if (!(event.getApplicationContext() instanceof WebServerApplicationContext web)) {
            return;
        }
        String base = "http://localhost:" + web.getWebServer().getPort();
        issueDemoKeyOnce();
        Map<String, SandboxDemo.ProviderConnect> throughProviders = SandboxDemo.throughProviders().stream()
                .collect(Collectors.toMap(SandboxDemo.ProviderConnect::channelId, Function.identity()));
        for (SandboxDemo.DemoConnection c : demo.register(base)) {
            ChannelId channel = new ChannelId(c.channelId());
            SandboxDemo.ProviderConnect oauth = throughProviders.get(c.channelId());
            if (oauth != null) {
                try {
                    connectThroughProvider(base, channel, oauth);
                    // the demo shows the verification after success on every channel that can read back
                    connections.verifyAfterSuccess(DEMO, channel, true, ACTOR);
                    continue;
                } catch (RuntimeException e) {
                    log.warn("demo channel {} could not be connected through {}'s consent ({}); storing its fields"
                            + " instead", channel, c.type(), e.getMessage());
                }
            }
            ObjectNode fields = json.valueToTree(c.fields());
            fields.put("verifyAfterSuccess", true);
            connections.configure(DEMO, channel, ChannelConnectionRequest.of(fields), ACTOR);
            probes.probe(DEMO, channel);
        }
        log.info("demo workspace '{}' has sandbox channels; try POST {}/api/v1/workspaces/demo/publications", DEMO,
                base);
    }

    /**
     * Connects a demo channel as an admin would with the console's "Connect" button: the connect
     * started, the provider's consent page followed (the sandbox approves at once) and Herald's
     * callback reached over HTTP as the browser would, then the choice made where the grant allows
     * several. The connection is stored, probed, as for any admin.
     */
    private void connectThroughProvider(String base, ChannelId channel, SandboxDemo.ProviderConnect oauth) {
        ObjectNode start = json.valueToTree(oauth.start());
        URI authorize = flows.start(DEMO, channel, start, ACTOR).authorizeUrl();
        HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> consent = get(browser, authorize, "text/html");
        String back = consent.headers().firstValue("Location").filter(l -> consent.statusCode() / 100 == 3)
                .orElseThrow(() -> new IllegalStateException("the consent page answered " + consent.statusCode()));
        URI callback = URI.create(back.contains("#") ? back.substring(0, back.indexOf('#')) : back);
        if (!callback.toString().startsWith(base + "/oauth/callback/")) {
            throw new IllegalStateException("the consent page sent the browser elsewhere");
        }
        HttpResponse<String> returned = get(browser, callback, "application/json");
        JsonNode result = readTree(returned.body());
        if (returned.statusCode() != 200) {
            throw new IllegalStateException("the callback answered " + returned.statusCode() + ": "
                    + result.path("detail").asText());
        }
        if (result.has("choices")) {
            flows.choose(DEMO, channel, result.path("state").asText(), oauth.choice(), ACTOR);
        }
    }

    private static HttpResponse<String> get(HttpClient browser, URI uri, String accept) {
        try {
            return browser.send(HttpRequest.newBuilder(uri).header("Accept", accept).timeout(Duration.ofSeconds(30))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("no answer from " + uri.getHost() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private JsonNode readTree(String body) {
        try {
            return json.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("the callback's answer is not JSON", e);
        }
    }

    /**
     * The demo workspace's key (every role but system), issued when the workspace is first
     * created. The embedded run keeps it beside the system key in the data folder.
     */
    private void issueDemoKeyOnce() {
        Path keyFile = DataDirectory.resolve(environment).resolve("demo.key");
        if (keys.createWorkspace(DEMO.value(), "Demo (sandbox channels)").isEmpty()) {
            if (DataDirectory.embeddedDatabase(environment) && Files.exists(keyFile)) {
                try {
                    DataDirectory.restrictExisting(keyFile);
                } catch (IOException e) {
                    log.warn("could not restrict the permissions of {}: {}", keyFile, e.getMessage());
                }
                log.info("demo workspace key: see {}", keyFile);
            }
            return;
        }
        ApiKeyStore.IssuedKey key = keys.issue(DEMO.value(),
                EnumSet.of(Role.PUBLISHER, Role.OPERATOR, Role.AUDITOR, Role.ADMIN), "demo", "herald-demo", null);
        if (DataDirectory.embeddedDatabase(environment)) {
            try {
                // a file left from an earlier database names a key that this one never issued
                Files.deleteIfExists(keyFile);
                DataDirectory.writeSecret(keyFile, key.key() + System.lineSeparator());
                log.info("demo workspace key (all workspace roles), shown once and kept in {}: {}", keyFile,
                        key.key());
                return;
            } catch (IOException e) {
                log.warn("could not keep the demo key in {}: {}", keyFile, e.getMessage());
            }
        }
        log.info("demo workspace key (all workspace roles), shown once: {}", key.key());
    }
}
