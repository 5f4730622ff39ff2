package io.herald.command.channel;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.command.publication.PublicationCommandController;
import io.herald.command.publication.PublicationRequest;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.platform.wire.Json;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Connecting a channel through its provider (docs/api.md#connecting-through-the-provider):
 * {@code POST …/connect} starts, the provider sends the browser to {@code GET /oauth/callback/{type}}
 * (no key: the state authenticates it), {@code POST …/connect/choice} picks among several
 * connections.
 */
@RestController
public class ChannelConnectController {

    private final ChannelConnectFlows flows;

    public ChannelConnectController(ChannelConnectFlows flows) {
        this.flows = flows;
    }

    /** The body of a choice. */
    @Schema(name = "ConnectChoiceRequest")
    public record Choice(String state, String id) {
    }

    @Operation(description = "Starts connecting the channel through its provider's OAuth consent with PKCE (the body"
            + " names the channel type, and for a per-instance provider its instance): answers the authorizeUrl to open in the admin's"
            + " browser and until when its single-use state holds. Nothing is stored until the provider's return.")
    @PostMapping("/api/v1/workspaces/{ws}/channels/{channelId}/connect")
    public ResponseEntity<ChannelConnectFlows.Started> connect(
            @PathVariable("ws") String ws, @PathVariable("channelId") String channelId, @RequestBody ObjectNode body,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        checkIds(ws, channelId);
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(flows.start(new WorkspaceId(ws),
                new ChannelId(channelId), body, actor == null ? "anonymous" : actor));
    }

    @Operation(description = "Lists the channel types this server has plug-ins for, in name order, and how a workspace"
            + " admin connects each: through the provider's consent (oauth; available only where the operator has"
            + " configured the provider's app, else the reason names the unset keys) with the fields its start takes,"
            + " or with the PUT of its form's fields (form), with each field's label, whether it is a secret and"
            + " whether a new connection needs it. Written from the plug-ins: a new channel type appears here.")
    @GetMapping("/api/v1/workspaces/{ws}/channel-types")
    public ResponseEntity<List<ChannelConnectFlows.ChannelTypeView>> types(@PathVariable("ws") String ws) {
        if (!ws.matches(PublicationRequest.SAFE_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace");
        }
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(flows.types());
    }

    /**
     * The provider's return. An API client gets the result as JSON; the admin's browser (it asks for
     * a page) is sent back to the console with the result in the address's fragment, which is never
     * sent to a server — the stored connection's id and type, the choices (names only) with the
     * state that picks one, or the refusal.
     */
    @Operation(description = "Where the provider sends the admin's browser back (no key: the signed, single-use state"
            + " authenticates it). Exchanges the code and stores the connection as a PUT of its fields would, or"
            + " keeps the choices the grant allows for a choice. A browser asking for a page is sent to the console"
            + " with the result in the address's fragment; any other client gets the result as JSON.")
    @GetMapping("/oauth/callback/{type}")
    public ResponseEntity<?> callback(
            @PathVariable("type") String type,
            @RequestParam(name = "code", required = false) String code,
            @RequestParam(name = "state", required = false) String state,
            @RequestParam(name = "error", required = false) String error,
            @RequestParam(name = "error_description", required = false) String errorDescription,
            @RequestHeader(name = "Accept", required = false) String accept) {
        if (accept == null || !accept.contains(MediaType.TEXT_HTML_VALUE)) {
            return ResponseEntity.ok().cacheControl(CacheControl.noStore()).header("Referrer-Policy", "no-referrer")
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(flows.callback(type, code, state, error, errorDescription));
        }
        ObjectNode result = Json.object();
        try {
            ChannelConnectFlows.ConnectResult done = flows.callback(type, code, state, error, errorDescription);
            result.put("workspace", done.workspace()).put("channelId", done.channelId()).put("type", type);
            if (done.connection() != null) {
                result.put("connected", true);
            } else {
                result.put("state", done.state());
                done.choices().forEach(c -> result.withArray("choices").addObject().put("id", c.id())
                        .put("name", c.name()).put("kind", c.kind()));
            }
        } catch (HeraldRejection refusal) {
            // back to the workspace that started it (a correctly signed state names it), to say why
            flows.startedFor(state).ifPresent(started -> result.put("workspace", started.workspace())
                    .put("channelId", started.channelId()));
            result.put("type", type).put("error", refusal.code().code()).put("detail", refusal.detail());
        }
        return ResponseEntity.status(HttpStatus.SEE_OTHER).cacheControl(CacheControl.noStore())
                .header("Referrer-Policy", "no-referrer")
                .location(URI.create("/console" + (result.hasNonNull("workspace") ? "?ws="
                        + java.net.URLEncoder.encode(result.get("workspace").asText(), StandardCharsets.UTF_8) : "")
                        + "#connect=" + Base64.getUrlEncoder().withoutPadding()
                        .encodeToString(result.toString().getBytes(StandardCharsets.UTF_8)))).build();
    }

    @Operation(description = "Finishes a connect whose callback listed several choices (the Pages or organizations"
            + " the grant allows): stores the chosen one as a PUT of its fields would, and keeps no choices behind.")
    @PostMapping("/api/v1/workspaces/{ws}/channels/{channelId}/connect/choice")
    public ResponseEntity<ChannelConnectFlows.ConnectResult> choose(
            @PathVariable("ws") String ws, @PathVariable("channelId") String channelId, @RequestBody Choice choice,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        checkIds(ws, channelId);
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(flows.choose(new WorkspaceId(ws),
                new ChannelId(channelId), choice.state(), choice.id(), actor == null ? "anonymous" : actor));
    }

    private static void checkIds(String ws, String channelId) {
        if (!ws.matches(PublicationRequest.SAFE_ID) || !channelId.matches(PublicationRequest.SAFE_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace or channel");
        }
    }
}
