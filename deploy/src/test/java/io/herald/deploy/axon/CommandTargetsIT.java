package io.herald.deploy.axon;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.HeraldIntegrationTest;
import io.herald.platform.commands.CommandTargets;
import org.axonframework.config.Configuration;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Axon's aggregates find their command target resolver as the configuration's component of that
 * type (Axon's own only when there is none): in the running application that is Herald's.
 */
class CommandTargetsIT extends HeraldIntegrationTest {

    @Autowired
    private Configuration axon;

    @Test
    void theAggregatesResolveTargetsWithHeralds() {
        assertThat(axon.getComponent(CommandTargetResolver.class)).isInstanceOf(CommandTargets.class);
    }
}
