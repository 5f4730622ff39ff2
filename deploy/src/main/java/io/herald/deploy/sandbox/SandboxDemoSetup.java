package io.herald.deploy.sandbox;

import io.herald.adapters.sandbox.SandboxDemo;
import io.herald.command.channel.ChannelConnectionRequest;
import io.herald.command.channel.ChannelConnectionService;
import io.herald.command.channel.CapabilityProbes;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
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

    SandboxDemoSetup(SandboxDemo demo, ChannelConnectionService connections, CapabilityProbes probes) {
        this.demo = demo;
        this.connections = connections;
        this.probes = probes;
    }

    @EventListener
    void register(ApplicationReadyEvent event) {
        if (!(event.getApplicationContext() instanceof WebServerApplicationContext web)) {
            return;
        }
        String base = "http://localhost:" + web.getWebServer().getPort();
        for (SandboxDemo.DemoConnection c : demo.register(base)) {
            var settings = c.settings();
            var secrets = c.secrets();
            ChannelId channel = new ChannelId(c.channelId());
            connections.configure(DEMO, channel, new ChannelConnectionRequest(c.type().wireName(), settings.pageId(),
                    secrets.pageAccessToken(), secrets.readAccessToken(), settings.authorUrn(), secrets.accessToken(),
                    settings.scopes(), settings.siteUrl(), settings.username(), secrets.applicationPassword(), false),
                    "herald-demo");
            probes.probe(DEMO, channel);
        }
        log.info("demo workspace '{}' has sandbox channels; try POST {}/api/v1/workspaces/demo/publications", DEMO,
                base);
    }
}
