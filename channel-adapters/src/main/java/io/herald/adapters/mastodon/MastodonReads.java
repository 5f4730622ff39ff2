package io.herald.adapters.mastodon;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.FeedWindow;
import io.herald.adapters.http.Texts;
import io.herald.adapters.http.UnclassifiedFailure;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading a Mastodon account: read-back over the account's own statuses (newest first, 40 a page by
 * {@code max_id}, reblogs left out) in the window [sent − 5 min, now], matched on the plain text and
 * the status it replies to ({@link MastodonText} says why the listed HTML is compared, not each
 * status's source); one status by its id through {@code /source} (exact); whose a status is; and
 * the probe: the token's account, the instance's limits, and whether the statuses can be read.
 */
final class MastodonReads implements ProviderAdapter.Probe {

    /** How far before the attempt's start a status may be stamped, as the other text-matching channels read. */
    static final Duration READ_BACK_MARGIN = Duration.ofMinutes(5);
    static final int PAGE_SIZE = 40;
    private static final String READ_SCOPE = "Mastodon did not let the token read the account's statuses: "
            + "create a token with read:statuses and store it.";
    private static final Pattern STATUS_ID = Pattern.compile("(?:/statuses/|/@[^/\\s]+/)([0-9A-Za-z]+)/?(?:[?#].*)?$");

    private final MastodonApi api;

    MastodonReads(MastodonApi api) {
        this.api = api;
    }

    ProviderAdapter.FeedReader feedReader() {
        return new ProviderAdapter.FeedReader(this::readBack, this::readPost);
    }

    CompletableFuture<ReadBackOutcome> readBack(ReadBackRequest request) {
        ChannelConnection connection = request.connection();
        if (Texts.blank(MastodonApi.token(connection))) {
            return done(new ReadBackOutcome.Unavailable("No Mastodon access token is stored."));
        }
        String inReplyTo = null;
        String text = MastodonText.of(request.content());
        if (request.ofComment()) {
            if (request.postRef() == null || Texts.blank(request.postRef().id())) {
                return done(new ReadBackOutcome.Unknown("The status the comment replies to is not known."));
            }
            inReplyTo = request.postRef().id();
            text = request.content().firstComment() == null ? "" : request.content().firstComment().strip();
        }
        FeedWindow window = FeedWindow.posts("of the account", request.attemptStartedAt().minus(READ_BACK_MARGIN),
                api.clock().instant(), MastodonText.comparable(inReplyTo, text), null);
        return UnclassifiedFailure.asReadBackOutcome(api.account(connection).thenCompose(account -> {
            if (account instanceof MastodonApi.NotKnown notKnown) {
                return done(readFailure(notKnown.exchange(), "the token's account"));
            }
            String id = ((MastodonApi.Known) account).id();
            FeedWindow.Pages<String> pages = maxId -> page(connection, id, maxId);
            return window.search("the account's statuses", true, (String) null, pages);
        }), MastodonApi.instance(connection), List.of(MastodonApi.token(connection)));
    }

    /** One page of the account's statuses, from {@code maxId} on (null: the newest). */
    private CompletableFuture<FeedWindow.Page<String>> page(ChannelConnection connection, String account, String maxId) {
        String path = "/api/v1/accounts/" + Forms.enc(account) + "/statuses?limit=" + PAGE_SIZE
                + "&exclude_reblogs=true" + (maxId == null ? "" : "&max_id=" + Forms.enc(maxId));
        return api.send(MastodonApi.get(connection, path, account)).thenApply(exchange -> {
            if (!(exchange instanceof Exchange.Answered answered && answered.status() == 200)) {
                return FeedWindow.Page.failed(readFailure(exchange, "the account's statuses"));
            }
            JsonNode list = answered.bodyTooLarge() ? null : Json.parse(answered.body());
            if (list == null || !list.isArray()) {
                return FeedWindow.Page.failed(new ReadBackOutcome.Unknown("The account's statuses: the answer was "
                        + "no list."));
            }
            List<FeedWindow.Item> items = new ArrayList<>();
            String last = null;
            for (JsonNode status : list) {
                String id = Json.text(status, "id");
                last = id;
                items.add(new FeedWindow.Item(id, MastodonApi.createdAt(status),
                        MastodonText.comparable(Json.text(status, "in_reply_to_id"),
                                MastodonText.plain(Json.text(status, "content"))),
                        List.of(), new ProviderRef(id, Json.text(status, "url"))));
            }
            return new FeedWindow.Page<>(items, items.isEmpty() ? null : last, null);
        });
    }

    /** What an answer other than 200 to a read means. */
    private static ReadBackOutcome readFailure(Exchange exchange, String what) {
        if (!(exchange instanceof Exchange.Answered answered)) {
            return new ReadBackOutcome.Unknown(FeedWindow.capitalised(what) + " could not be read: "
                    + MastodonApi.describe(exchange));
        }
        if (answered.status() == 401) {
            return new ReadBackOutcome.AuthLost("http_401", "Mastodon refused the access token ("
                    + MastodonApi.error(answered) + "). " + MastodonOutcome.AUTH_FIX);
        }
        if (answered.status() == 403) {
            return new ReadBackOutcome.Unavailable(READ_SCOPE + " (" + MastodonApi.error(answered) + ")");
        }
        return new ReadBackOutcome.Unknown(FeedWindow.capitalised(what) + ": " + MastodonApi.describe(exchange));
    }

    /** One status by its id: its source text, exact. */
    CompletableFuture<PostReading> readPost(PostReadRequest request) {
        ChannelConnection connection = request.connection();
        if (request.target() == null || Texts.blank(request.target().id())) {
            return done(new PostReading.Unknown("the status is not known"));
        }
        String id = request.target().id();
        return api.send(MastodonApi.get(connection, "/api/v1/statuses/" + Forms.enc(id) + "/source", id))
                .thenApply(exchange -> {
                    if (!(exchange instanceof Exchange.Answered answered)) {
                        return (PostReading) new PostReading.Unknown("the read failed: "
                                + MastodonApi.describe(exchange));
                    }
                    if (answered.status() == 200) {
                        String text = Json.text(Json.parse(answered.body()), "text");
                        if (text == null) {
                            return new PostReading.Unknown("the status's source has no text");
                        }
                        boolean asWanted = request.wanted() == null
                                || Texts.normalise(MastodonText.of(request.wanted())).equals(Texts.normalise(text));
                        return new PostReading.Present(asWanted, "the status " + id + " exists");
                    }
                    if (answered.status() == 404) {
                        return new PostReading.Gone("no status " + id + " (404)");
                    }
                    if (answered.status() == 401 || answered.status() == 403) {
                        return new PostReading.Unavailable(READ_SCOPE + " (" + MastodonApi.error(answered) + ")");
                    }
                    return new PostReading.Unknown("the status " + id + ": " + MastodonApi.describe(exchange));
                })
                .exceptionally(failure -> new PostReading.Unknown("the read failed: "
                        + failure.getClass().getSimpleName()));
    }

    /** Whether a status an operator names (its id, or its web address) is the token's account's. */
    CompletableFuture<PostOwnership> readOwnership(PostOwnershipRequest request) {
        ChannelConnection connection = request.connection();
        String id = statusId(request.named());
        if (id == null) {
            return done(new PostOwnership.NotOwned("the reference names no Mastodon status (an id, or an address "
                    + "ending in /@user/<id>)"));
        }
        if (Texts.blank(MastodonApi.token(connection))) {
            return done(new PostOwnership.Unreadable("No Mastodon access token is stored: reconnect the account."));
        }
        return api.account(connection).thenCompose(account -> {
            if (account instanceof MastodonApi.NotKnown notKnown) {
                return done(ownershipFailure(notKnown.exchange(), "the token's account"));
            }
            String owner = ((MastodonApi.Known) account).id();
            return api.send(MastodonApi.get(connection, "/api/v1/statuses/" + Forms.enc(id), id)).thenApply(exchange -> {
                if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
                    JsonNode status = Json.parse(answered.body());
                    String author = Json.text(status.path("account"), "id");
                    if (!owner.equals(author)) {
                        return new PostOwnership.NotOwned("the status " + id + " was written by account " + author
                                + ", not by the connection's account " + owner);
                    }
                    return new PostOwnership.Owned(new ProviderRef(id, Json.text(status, "url")),
                            "the status " + id + " exists and was written by the connection's account " + owner);
                }
                if (exchange instanceof Exchange.Answered answered && answered.status() == 404) {
                    return new PostOwnership.NotOwned("Mastodon says the status " + id + " does not exist");
                }
                return ownershipFailure(exchange, "the status " + id);
            });
        }).exceptionally(failure -> new PostOwnership.Unknown("The status could not be read: "
                + failure.getClass().getSimpleName()));
    }

    private static PostOwnership ownershipFailure(Exchange exchange, String what) {
        if (exchange instanceof Exchange.Answered answered && (answered.status() == 401 || answered.status() == 403)) {
            return new PostOwnership.Unreadable(READ_SCOPE + " (" + MastodonApi.error(answered) + ")");
        }
        return new PostOwnership.Unknown(FeedWindow.capitalised(what) + " could not be read: "
                + MastodonApi.describe(exchange));
    }

    /** The id a reference names: the id itself, else the last segment of a status's address. */
    static String statusId(ProviderRef named) {
        if (named == null) {
            return null;
        }
        if (!Texts.blank(named.id())) {
            String id = named.id().strip();
            return id.matches("[0-9A-Za-z]{1,64}") ? id : null;
        }
        if (Texts.blank(named.url())) {
            return null;
        }
        Matcher matcher = STATUS_ID.matcher(named.url().strip());
        return matcher.find() ? matcher.group(1) : null;
    }

    /**
     * The token's account ({@code verify_credentials}; 401 is a lost token), the instance's limits
     * ({@code /api/v2/instance}, told where lower than what intake lets through), and reading the
     * account's statuses ({@code read:statuses}; 403 makes read-back unavailable).
     */
    @Override
    public CompletableFuture<CapabilityReport> probe(ChannelConnection connection) {
        String token = MastodonApi.token(connection);
        if (Texts.blank(token) || Texts.blank(MastodonApi.instance(connection))) {
            Capability none = Capability.unavailable("No Mastodon instance or access token stored.");
            return done(new CapabilityReport(none, none));
        }
        String stored = connection.settings(MastodonSettings.class).accountId();
        return UnclassifiedFailure.asCapabilityReport(api.verifyCredentials(connection).thenCompose(verified -> {
            String account = MastodonApi.accountIdOf(verified);
            if (account == null) {
                return done(unverified(verified));
            }
            if (!Texts.blank(stored) && !stored.equals(account)) {
                Capability other = Capability.unavailable("The access token belongs to account " + account
                        + ", not to the connection's account " + stored + ": store that account's token.");
                return done(new CapabilityReport(other, other));
            }
            return api.send(MastodonApi.get(connection, "/api/v2/instance", MastodonApi.instance(connection)))
                    .thenCompose(instance -> {
                        Capability publish = new Capability(true, limits(instance));
                        String path = "/api/v1/accounts/" + Forms.enc(account) + "/statuses?limit=1";
                        return api.send(MastodonApi.get(connection, path, account))
                                .thenApply(read -> new CapabilityReport(publish, readable(read)));
                    });
        }), MastodonApi.instance(connection), List.of(token));
    }

    private static CapabilityReport unverified(Exchange exchange) {
        if (exchange instanceof Exchange.Answered answered && answered.status() == 401) {
            Capability none = Capability.unavailable("Mastodon refused the access token");
            return new CapabilityReport(none, none, "Mastodon refused the access token (" + MastodonApi.error(answered)
                    + "). " + MastodonOutcome.AUTH_FIX);
        }
        if (exchange instanceof Exchange.Answered answered && answered.status() == 403) {
            Capability none = Capability.unavailable("The token may not name its account (read:accounts or profile "
                    + "missing: " + MastodonApi.error(answered) + "). " + MastodonOutcome.AUTH_FIX);
            return new CapabilityReport(none, none);
        }
        Capability none = Capability.unavailable("The token's account could not be confirmed: "
                + MastodonApi.describe(exchange));
        return new CapabilityReport(none, none);
    }

    private static Capability readable(Exchange exchange) {
        if (exchange instanceof Exchange.Answered answered && answered.status() == 200) {
            return new Capability(true, "text match over the account's own statuses; within the idempotency window "
                    + "a create is sent again with its Idempotency-Key");
        }
        if (exchange instanceof Exchange.Answered answered && answered.status() == 403) {
            return Capability.unavailable(READ_SCOPE + " (" + MastodonApi.error(answered) + ")");
        }
        return Capability.unavailable("The account's statuses could not be read: " + MastodonApi.describe(exchange));
    }

    /** The instance's limits, in words; where they are lower than intake's, that is said. */
    private static String limits(Exchange exchange) {
        if (!(exchange instanceof Exchange.Answered answered && answered.status() == 200)) {
            return "the instance's limits could not be read (" + MastodonApi.describe(exchange) + "); posts are "
                    + "checked against Mastodon's defaults";
        }
        JsonNode configuration = Json.parse(answered.body()).path("configuration");
        int characters = configuration.path("statuses").path("max_characters").asInt(MastodonText.MAX_CHARACTERS);
        int images = configuration.path("statuses").path("max_media_attachments").asInt(MastodonText.MAX_IMAGES);
        int perUrl = configuration.path("statuses").path("characters_reserved_per_url")
                .asInt(MastodonText.URL_CHARACTERS);
        long imageBytes = configuration.path("media_attachments").path("image_size_limit").asLong(0);
        List<String> types = new ArrayList<>();
        configuration.path("media_attachments").path("supported_mime_types").forEach(t -> {
            if (t.asText().startsWith("image/")) {
                types.add(t.asText());
            }
        });
        StringBuilder words = new StringBuilder("instance limits: " + characters + " characters (a link counts as "
                + perUrl + "), " + images + " images" + (imageBytes > 0 ? " of at most " + imageBytes + " bytes" : "")
                + (types.isEmpty() ? "" : " (" + String.join(", ", types) + ")"));
        if (characters < MastodonText.MAX_CHARACTERS || images < MastodonText.MAX_IMAGES
                || perUrl > MastodonText.URL_CHARACTERS) {
            words.append("; lower than Herald checks at intake (" + MastodonText.MAX_CHARACTERS + " characters, "
                    + MastodonText.MAX_IMAGES + " images): the instance refuses a longer post");
        }
        return words.toString();
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
