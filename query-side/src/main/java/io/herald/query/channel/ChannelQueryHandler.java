package io.herald.query.channel;

import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.channel.FindChannelConnectionsQuery;
import java.util.List;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.stereotype.Component;

/** Answers {@link FindChannelConnectionsQuery}: a workspace's connections, ordered by channel id. */
@Component
public class ChannelQueryHandler {

    private final ChannelViewRepository repository;

    public ChannelQueryHandler(ChannelViewRepository repository) {
        this.repository = repository;
    }

    @QueryHandler
    public List<ChannelConnectionView> handle(FindChannelConnectionsQuery query) {
        return repository.findAll(query.workspaceId());
    }
}
