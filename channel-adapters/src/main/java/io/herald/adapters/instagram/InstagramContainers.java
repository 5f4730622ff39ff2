package io.herald.adapters.instagram;

import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.platform.wire.Json;
import java.util.concurrent.CompletableFuture;

/** A container's status: {@code GET /{container-id}?fields=status_code,status}. */
final class InstagramContainers {

    /**
     * @param code   {@code IN_PROGRESS}, {@code FINISHED}, {@code PUBLISHED}, {@code ERROR}, {@code EXPIRED}, or
     *               {@code UNREAD} when the status could not be read
     * @param detail the status text (an error's message), or why it could not be read
     */
    record Status(String code, String detail, InstagramCalls.Answer answer) {

        /** The token lapsed while reading: the connection needs new credentials. */
        PublishOutcome.AuthLost lostAuth() {
            return answer.error() != null && answer.error().authLost()
                    ? new PublishOutcome.AuthLost(answer.error().providerCode(), answer.error().describe(),
                            answer.trace())
                    : null;
        }
    }

    private InstagramContainers() {
    }

    static CompletableFuture<Status> status(InstagramCalls calls, ChannelConnection connection, String containerId) {
        return calls.send(calls.graph().get(connection, "/" + InstagramGraph.segment(containerId)
                + "?fields=status_code,status")).thenApply(answer -> {
                    String code = answer.ok() ? Json.text(answer.body(), "status_code") : null;
                    if (code == null) {
                        return new Status("UNREAD", answer.detail(), answer);
                    }
                    String status = Json.text(answer.body(), "status");
                    return new Status(code, status == null ? code : status, answer);
                });
    }
}
