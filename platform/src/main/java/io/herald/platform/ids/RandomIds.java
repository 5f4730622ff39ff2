package io.herald.platform.ids;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random (version 4) UUIDs, as {@link UUID#randomUUID()} makes them, from a cryptographically strong
 * generator of each thread's own. {@code UUID.randomUUID()} draws from one generator shared by the
 * whole JVM, behind one lock: a background thread (lowest priority) that the scheduler paused while
 * it held that lock kept every request that needed an id waiting, up to tens of milliseconds on a
 * busy node. Each thread's generator is seeded once from the system's entropy.
 */
public final class RandomIds {

    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(RandomIds::newGenerator);

    private RandomIds() {
    }

    private static SecureRandom newGenerator() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    /** A new random UUID (version 4, IETF variant). */
    public static UUID uuid() {
        byte[] bytes = new byte[16];
        RANDOM.get().nextBytes(bytes);
        bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x40);
        bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80);
        long high = 0;
        long low = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (bytes[i] & 0xff);
            low = (low << 8) | (bytes[i + 8] & 0xff);
        }
        return new UUID(high, low);
    }
}
