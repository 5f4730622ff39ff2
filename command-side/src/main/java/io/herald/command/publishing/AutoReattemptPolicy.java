package io.herald.command.publishing;

import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelDirectory;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import org.springframework.stereotype.Component;

/**
 * Whether a publication found NOT_FOUND by an automatic read-back is re-attempted without an
 * operator: a per-connection opt-in, off by default (docs/architecture.md#rules-an-auditor-can-check, rule 3).
 */
@Component
public class AutoReattemptPolicy {

    private final ChannelDirectory directory;

    public AutoReattemptPolicy(ChannelDirectory directory) {
        this.directory = directory;
    }

    public boolean reattemptsAfterNotFound(WorkspaceId workspace, ChannelId channel) {
        return directory.find(workspace, channel).map(ChannelConnection::autoReattemptAfterNotFound).orElse(false);
    }
}
