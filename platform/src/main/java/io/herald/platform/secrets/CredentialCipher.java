package io.herald.platform.secrets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for secrets at rest, under one or more keys: the first encrypts, every one
 * decrypts, so a key is rotated by putting a new one in front, re-encrypting what is stored
 * ({@link #reseal}) and then dropping the old one. Each ciphertext is bound (as associated data)
 * to the row it belongs to, so a ciphertext copied onto another row does not decrypt.
 *
 * <p>A ciphertext starts with {@code "HK" 0x01} and the 4-byte id of its key (a hash of the key,
 * so nothing needs naming), then the nonce and the sealed bytes; the header is authenticated too.
 * Ciphertexts written before key ids existed are the nonce and sealed bytes alone; they still
 * decrypt, with whichever configured key opens them.
 */
public final class CredentialCipher {

    private static final byte[] MAGIC = {'H', 'K', 1};
    private static final int KEY_ID_BYTES = 4;
    private static final int HEADER_BYTES = MAGIC.length + KEY_ID_BYTES;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    /** Keys by id, in configured order: the first one encrypts. */
    private final Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
    private final byte[] primaryId;
    private final SecureRandom random = new SecureRandom();

    public CredentialCipher(byte[] key) {
        this(List.of(key));
    }

    public CredentialCipher(List<byte[]> keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("at least one credential encryption key is needed");
        }
        for (byte[] key : keys) {
            if (key.length != 32) {
                throw new IllegalArgumentException("a credential encryption key must be 32 bytes (AES-256)");
            }
            this.keys.putIfAbsent(keyId(key), new SecretKeySpec(key.clone(), "AES"));
        }
        this.primaryId = HexFormat.of().parseHex(keyId(keys.get(0)));
    }

    /** The id a ciphertext carries for this key: 8 hex digits of a hash of it, never the key itself. */
    public static String keyId(byte[] key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update("herald credential key id".getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest(key), 0, KEY_ID_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /** The id of the key that encrypts. */
    public String primaryKeyId() {
        return HexFormat.of().formatHex(primaryId);
    }

    /** The ids of every configured key, the encrypting one first. */
    public List<String> keyIds() {
        return List.copyOf(keys.keySet());
    }

    public byte[] encrypt(byte[] plaintext, String associatedData) {
        byte[] header = ByteBuffer.allocate(HEADER_BYTES).put(MAGIC).put(primaryId).array();
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(primaryKeyId()), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(header);
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext);
            return ByteBuffer.allocate(HEADER_BYTES + NONCE_BYTES + sealed.length)
                    .put(header).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("credential encryption failed", e);
        }
    }

    public byte[] decrypt(byte[] ciphertext, String associatedData) {
        byte[] aad = associatedData.getBytes(StandardCharsets.UTF_8);
        Optional<String> id = keyIdOf(ciphertext);
        if (id.isPresent() && keys.containsKey(id.get())) {
            Optional<byte[]> plain = open(keys.get(id.get()), ciphertext, HEADER_BYTES, aad);
            if (plain.isPresent()) {
                return plain.get();
            }
        }
        // written before key ids: the nonce and the sealed bytes; any configured key may be the one
        for (SecretKeySpec key : keys.values()) {
            Optional<byte[]> plain = open(key, ciphertext, 0, aad);
            if (plain.isPresent()) {
                return plain.get();
            }
        }
        // deliberately without the cause's message: nothing about the secret leaves here
        throw new IllegalStateException("stored credentials cannot be decrypted with the configured keys"
                + id.map(k -> " (they name key " + k + ")").orElse(""));
    }

    /**
     * A key for another purpose (e.g. signing short-lived values), derived from the encrypting key
     * with HMAC-SHA256 over {@code purpose}: kept outside the database like the key itself, never
     * the key. It changes when the encrypting key does.
     */
    public byte[] derivedKey(String purpose) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(keys.get(primaryKeyId()).getEncoded(), "HmacSHA256"));
            return mac.doFinal(("herald derived key: " + purpose).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is missing", e);
        }
    }

    /** True when the ciphertext is already under the encrypting key, so {@link #reseal} would change nothing. */
    public boolean underPrimaryKey(byte[] ciphertext) {
        return keyIdOf(ciphertext).filter(primaryKeyId()::equals).isPresent();
    }

    /** The same secret encrypted with the encrypting key, for the same associated data. */
    public byte[] reseal(byte[] ciphertext, String associatedData) {
        byte[] plain = decrypt(ciphertext, associatedData);
        try {
            return encrypt(plain, associatedData);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    private static Optional<String> keyIdOf(byte[] ciphertext) {
        if (ciphertext.length < HEADER_BYTES + NONCE_BYTES
                || !Arrays.equals(ciphertext, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return Optional.empty();
        }
        return Optional.of(HexFormat.of().formatHex(ciphertext, MAGIC.length, HEADER_BYTES));
    }

    private static Optional<byte[]> open(SecretKeySpec key, byte[] ciphertext, int headerBytes, byte[] aad) {
        if (ciphertext.length < headerBytes + NONCE_BYTES + TAG_BITS / 8) {
            return Optional.empty();
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, ciphertext, headerBytes, NONCE_BYTES));
            if (headerBytes > 0) {
                cipher.updateAAD(ciphertext, 0, headerBytes);
            }
            cipher.updateAAD(aad);
            int start = headerBytes + NONCE_BYTES;
            return Optional.of(cipher.doFinal(ciphertext, start, ciphertext.length - start));
        } catch (GeneralSecurityException e) {
            return Optional.empty();
        }
    }
}
