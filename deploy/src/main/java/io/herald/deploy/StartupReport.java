package io.herald.deploy;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import io.herald.platform.config.SandboxProperties;

import io.herald.platform.data.DataDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.info.GitProperties;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Tells whoever started Herald which build runs and where to look: the one banner of a start. */
@Component
@EnableConfigurationProperties(SandboxProperties.class)
class StartupReport {

    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);

    @EventListener
    void ready(ApplicationReadyEvent event) {
        Environment env = event.getApplicationContext().getEnvironment();
        int port = event.getApplicationContext() instanceof WebServerApplicationContext web
                ? web.getWebServer().getPort() : -1;
        String base = "http://localhost:" + port;
        String database = DataDirectory.embeddedDatabase(env)
                ? "embedded PostgreSQL, data in " + DataDirectory.resolve(env)
                : "PostgreSQL at " + DatasourceUrls.withoutCredentials(env.getProperty("spring.datasource.url"));
        boolean sandbox = event.getApplicationContext().getBean(SandboxProperties.class).enabled();
        log.info("""

                ==============================================================
                 Herald {} is running{}
                   API          {}/api/v1/workspaces/{ws}/publications
                   API docs     {}/swagger-ui.html  (OpenAPI: {}/v3/api-docs)
                   console      {}/console
                   health       {}/actuator/health
                   database     {}
                   sandbox      {}
                ==============================================================""",
                version(event), commit(event), base, base, base, base, base, database,
                sandbox ? base + "/sandbox (simulated " + simulated(event) + ")" : "off");
    }

    /** The registered channel types, which the sandbox simulates: the plug-in registry's list. */
    private static String simulated(ApplicationReadyEvent event) {
        return String.join(", ", event.getApplicationContext().getBean(ChannelPlugins.class).types().stream()
                .map(ChannelType::wireName).toList());
    }

    private static String version(ApplicationReadyEvent event) {
        return event.getApplicationContext().getBeanProvider(BuildProperties.class).stream().findFirst()
                .map(BuildProperties::getVersion).orElse("(development build)");
    }

    private static String commit(ApplicationReadyEvent event) {
        return event.getApplicationContext().getBeanProvider(GitProperties.class).stream().findFirst()
                .map(git -> " (commit " + git.getShortCommitId() + ")").orElse("");
    }
}
