package io.herald.deploy.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.sandbox.SandboxDemo;
import io.herald.command.channel.ChannelConnectionRequest;
import io.herald.command.channel.ChannelConnectionService;
import io.herald.command.channel.CapabilityProbes;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.platform.data.DataDirectory;
import io.herald.access.ApiKeyStore;
import io.herald.access.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
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
 * mu-plugin).
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class SandboxDemoSetup {

    static final WorkspaceId DEMO = new WorkspaceId("demo");
    private static final Logger log = LoggerFactory.getLogger(SandboxDemoSetup.class);

    private final SandboxDemo demo;
    private final ChannelConnectionService connections;
    private final CapabilityProbes probes;
    private final ApiKeyStore keys;
    private final Environment environment;
    private final ObjectMapper json;

    SandboxDemoSetup(SandboxDemo demo, ChannelConnectionService connections, CapabilityProbes probes,
                     ApiKeyStore keys, Environment environment, ObjectMapper json) {
        this.demo = demo;
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
        for (SandboxDemo.DemoConnection c : demo.register(base)) {
            ChannelId channel = new ChannelId(c.channelId());
            connections.configure(DEMO, channel, ChannelConnectionRequest.of(json.valueToTree(c.fields())),
                    "herald-demo");
            probes.probe(DEMO, channel);
        }
        log.info("demo workspace '{}' has sandbox channels; try POST {}/api/v1/workspaces/demo/publications", DEMO,
                base);
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
