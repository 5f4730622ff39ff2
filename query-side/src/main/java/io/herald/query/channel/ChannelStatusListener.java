package io.herald.query.channel;

import io.herald.contracts.channel.ChannelConnectionView;

/**
 * Told of a connection's health change in the channel view's transaction (the webhook outbox rows
 * of {@code channel.*} events commit with the view row and the processor's token).
 *
 * @param type     the webhook event type the change reports
 * @param sequence the connection event's sequence number
 */
public interface ChannelStatusListener {

    void changed(String type, ChannelConnectionView view, String connectionId, long sequence);
}
