package io.herald.contracts.publication;

/** Where the published item lives at the provider: its id and, where known, its URL. */
public record ProviderRef(String id, String url) {
}
