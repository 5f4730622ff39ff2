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
 * microseconds since the epoch, then a 10-bit clock id.
 *
 * <p>A post's key keeps the second of its time and spreads SHA-256 of the publication id over the
 * rest: the microseconds within that second are the time's own shifted by a number from the hash
 * (0 to 999,999), and the clock id is 10 more bits of it, so two publications due at the same
 * instant (a schedule on the minute) share a key with a chance of about 1 in a billion rather than
 * 1 in 1,024. The key stays within the second of the post's time (a valid TID, in time order to the
 * second), and {@code createdAt} is the time itself. Keys made before this change
 * ({@link #legacyPost}: the time's microseconds and a 10-bit clock id) are still looked for by
 * read-back and before a re-send, so a publication whose first attempt used one never gets a second
 * post under the new key.
 *
 * <p>The first comment's key is one microsecond after the post's, with its own clock id, so it
 * never equals the post's.
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
     * request), else when it was requested; the microseconds within its second and the clock id
     * come from the publication id (see above). Empty when the request carries neither time.
     */
    static Optional<Key> post(PublicationId publicationId, Instant requestedAt, Instant scheduledAt) {
        return due(requestedAt, scheduledAt).map(at -> {
            byte[] hash = hash(publicationId.value());
            long micros = toMicros(at);
            long second = Math.floorDiv(micros, 1_000_000L) * 1_000_000L;
            long spread = Long.remainderUnsigned(bits(hash, 0, 40), 1_000_000L);
            long within = (micros - second + spread) % 1_000_000L;
            return key(second + within, (int) bits(hash, 40, 10), at);
        });
    }

    /**
     * The post's key as Herald derived it before the key spread the publication id over the second:
     * the time's own microseconds and a clock id of the first 10 bits of the hash. A publication
     * whose first attempt was made then has its post (if any) under this key.
     */
    static Optional<Key> legacyPost(PublicationId publicationId, Instant requestedAt, Instant scheduledAt) {
        return due(requestedAt, scheduledAt).map(at -> key(toMicros(at), clockId(publicationId.value()), at));
    }

    private static Optional<Instant> due(Instant requestedAt, Instant scheduledAt) {
        Instant at = requestedAt;
        if (scheduledAt != null && (at == null || scheduledAt.isAfter(at))) {
            at = scheduledAt;
        }
        return Optional.ofNullable(at).map(time -> time.truncatedTo(ChronoUnit.MICROS));
    }

    /** The first comment's key: one microsecond after the post's ({@code postRkey}), empty when that is no TID. */
    static Optional<Key> comment(PublicationId publicationId, String postRkey) {
        return micros(postRkey).map(micros -> key(micros + 1, clockId(publicationId.value() + "comment"),
                ofMicros(micros + 1)));
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

    /** The TID of {@code micros} and {@code clockId}; {@code at} is the record's {@code createdAt}. */
    private static Key key(long micros, int clockId, Instant at) {
        long value = (micros << 10) | clockId;
        char[] chars = new char[13];
        for (int i = 12; i >= 0; i--) {
            chars[i] = ALPHABET.charAt((int) (value & 31));
            value >>>= 5;
        }
        return new Key(new String(chars), at);
    }

    private static byte[] hash(String seed) {
        return HexFormat.of().parseHex(IdempotencyKeys.sha256Hex(seed));
    }

    /** {@code count} bits (at most 63) of {@code hash} from bit {@code from}, the first bit the highest. */
    private static long bits(byte[] hash, int from, int count) {
        long value = 0;
        for (int i = from; i < from + count; i++) {
            value = (value << 1) | ((hash[i / 8] >>> (7 - i % 8)) & 1);
        }
        return value;
    }

    /** The first 10 bits of the hash of {@code seed}: the legacy post key's and the comment key's clock id. */
    private static int clockId(String seed) {
        return (int) bits(hash(seed), 0, 10);
    }

    private static long toMicros(Instant at) {
        return at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000;
    }

    private static Instant ofMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }
}
