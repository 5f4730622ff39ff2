package io.herald.adapters.port;

/**
 * How a workspace admin connects a channel of one type: through the provider's own consent page
 * ({@link OAuthFlow}), or with a form of the {@code PUT} fields ({@link Form}).
 */
public sealed interface ConnectFlow permits ConnectFlow.Form, OAuthFlow {

    /**
     * The admin fills in the {@code PUT …/channels/{channelId}} fields. {@code secretGuide} says where
     * the secret is made; {@code {field}} stands for that request field's value (e.g. a WordPress
     * site's application-password page under its {@code {siteUrl}}), null when there is no such page.
     */
    record Form(String secretGuide) implements ConnectFlow {
    }
}
