package io.herald.command.channel;

import io.herald.command.publication.PublicationCommandController;
import io.herald.command.publication.PublicationRequest;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import jakarta.validation.Valid;
import java.time.Clock;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** {@code PUT /api/v1/workspaces/{ws}/channels/{channelId}} (API.md "Channel connections"). */
@RestController
public class ChannelConnectionController {

    private final ChannelConnectionService service;
    private final Clock clock;

    public ChannelConnectionController(ChannelConnectionService service, Clock clock) {
        this.service = service;
        this.clock = clock;
    }

    @PutMapping("/api/v1/workspaces/{ws}/channels/{channelId}")
    public ResponseEntity<ChannelConnectionView> configure(
            @PathVariable("ws") String ws, @PathVariable("channelId") String channelId,
            @Valid @RequestBody ChannelConnectionRequest body,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        if (!ws.matches(PublicationRequest.SAFE_ID) || !channelId.matches(PublicationRequest.SAFE_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace or channel");
        }
        WorkspaceId workspace = new WorkspaceId(ws);
        ChannelId channel = new ChannelId(channelId);
        ChannelConnectionService.Configured configured = service.configure(workspace, channel, body,
                actor == null ? "anonymous" : actor);
        Capability notProbed = Capability.unavailable("not probed yet");
        ChannelConnectionView view = new ChannelConnectionView(workspace, channel, configured.type(),
                configured.settings(), configured.autoReattempt(),
                new ChannelConnectionView.Capabilities(notProbed, notProbed), null, clock.instant());
        return ResponseEntity.status(configured.created() ? HttpStatus.CREATED : HttpStatus.OK).body(view);
    }
}
