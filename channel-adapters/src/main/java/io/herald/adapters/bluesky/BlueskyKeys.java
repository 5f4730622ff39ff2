package io.herald.adapters.bluesky;

import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The record key (a TID) and {@code createdAt} of the records Herald writes, derived from what the
 * publication recorded when it was requested, so that every attempt sends the same bytes: the PDS
 * answers a repeat with the same record and other content under the key with {@code InvalidSwap},
 * never with a second post. A TID is 64 bits written in base32-sortable: a zero bit, 53 bits of
 * microseconds since the epoch, then a 10-bit clock id; here the clock id is the first 10 bits of
 * SHA-256 of the publication id, so two publications requested in the same microsecond still get
 * different keys (but for a 1 in 1,024 chance). The first comment's key is one microsecond after
 * the post's, with its own clock id, so it never equals the post's.
 */
final class BlueskyKeys {

    private static final String ALPHABET = "234567abcdefghijklmnopqrstuvwxyz";
    private static final DateTimeFormatter CREATED_AT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    /** A record key with its time. */
    record Key(String rkey, Instant at) {

        /** The record's {@code createdAt}: the key's time, in microseconds, UTC. */
        String createdAt() {
            return CREATED_AT.format(at);
        }
    }

    private BlueskyKeys() {
    }

    /**
     * The post's key: its time is when the publication was due (its schedule, where later than the
     * request), else when it was requested. Empty when the request carries neither.
     */
    static Optional<Key> post(PublicationId publicationId, Instant requestedAt, Instant scheduledAt) {
        Instant at = requestedAt;
        if (scheduledAt != null && (at == null || scheduledAt.isAfter(at))) {
            at = scheduledAt;
        }
        return at == null ? Optional.empty() : Optional.of(key(at.truncatedTo(ChronoUnit.MICROS),
                clockId(publicationId.value())));
    }

    /** The first comment's key: one microsecond after the post's ({@code postRkey}), empty when that is no TID. */
    static Optional<Key> comment(PublicationId publicationId, String postRkey) {
        return micros(postRkey).map(micros -> key(ofMicros(micros + 1), clockId(publicationId.value() + "comment")));
    }

    static boolean isTid(String rkey) {
        return rkey != null && rkey.matches("[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}");
    }

    /** The microseconds of a TID. */
    static Optional<Long> micros(String rkey) {
        if (!isTid(rkey)) {
            return Optional.empty();
        }
        long value = 0;
        for (char c : rkey.toCharArray()) {
            value = (value << 5) | ALPHABET.indexOf(c);
        }
        return Optional.of(value >>> 10);
    }

    private static Key key(Instant at, int clockId) {
        long micros = toMicros(at);
        long value = (micros << 10) | clockId;
        char[] chars = new char[13];
        for (int i = 12; i >= 0; i--) {
            chars[i] = ALPHABET.charAt((int) (value & 31));
            value >>>= 5;
        }
        return new Key(new String(chars), at);
    }

    private static int clockId(String seed) {
        byte[] hash = HexFormat.of().parseHex(IdempotencyKeys.sha256Hex(seed));
        return ((hash[0] & 0xff) << 2) | ((hash[1] & 0xff) >>> 6);
    }

    private static long toMicros(Instant at) {
        return at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000;
    }

    private static Instant ofMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }
}
