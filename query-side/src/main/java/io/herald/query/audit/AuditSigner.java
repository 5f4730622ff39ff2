package io.herald.query.audit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;

/**
 * The audit key: Ed25519, kept outside the database, signs the chain's checkpoints. Its id is
 * {@code ed25519-} and the first 16 hex digits of the SHA-256 of the raw public key, so an auditor
 * can tell which key a checkpoint names from the public key alone.
 */
public final class AuditSigner {

    /** The DER prefix of an Ed25519 public key (X.509 SubjectPublicKeyInfo) before its 32 raw bytes. */
    private static final byte[] PUBLIC_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
    /** The DER prefix of an Ed25519 private key (PKCS#8 v1, as {@code openssl genpkey} writes it) before its seed. */
    private static final byte[] PRIVATE_PREFIX = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65,
            0x70, 0x04, 0x22, 0x04, 0x20};
    private static final int SEED = 32;

    private final PrivateKey privateKey;
    private final byte[] rawPublicKey;
    private final String keyId;

    private AuditSigner(byte[] seed) {
        try {
            // the JDK derives the public key only while generating a pair: give it the seed as randomness
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            generator.initialize(NamedParameterSpec.ED25519, new FixedSeed(seed));
            KeyPair pair = generator.generateKeyPair();
            this.privateKey = pair.getPrivate();
            this.rawPublicKey = raw(pair.getPublic());
            this.keyId = keyIdOf(rawPublicKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot make Ed25519 keys", e);
        }
    }

    /**
     * A signer from a key as configured: a PEM private key ({@code openssl genpkey -algorithm
     * ed25519}), or the base64 of its DER form, or the base64 of the 32-byte seed.
     */
    public static AuditSigner parse(String configured) {
        String text = configured.trim();
        if (text.startsWith("-----BEGIN")) {
            text = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text.replaceAll("\\s", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the audit signing key is neither PEM nor base64");
        }
        if (bytes.length == SEED) {
            return new AuditSigner(bytes);
        }
        if (bytes.length == PRIVATE_PREFIX.length + SEED
                && Arrays.equals(PRIVATE_PREFIX, Arrays.copyOf(bytes, PRIVATE_PREFIX.length))) {
            return new AuditSigner(Arrays.copyOfRange(bytes, PRIVATE_PREFIX.length, bytes.length));
        }
        throw new IllegalArgumentException("the audit signing key is not an Ed25519 private key"
                + " (PEM from `openssl genpkey -algorithm ed25519`, or base64 of 32 random bytes)");
    }

    /** A new random key, for the embedded quick start. */
    public static String generate() {
        byte[] seed = new byte[SEED];
        new SecureRandom().nextBytes(seed);
        return Base64.getEncoder().encodeToString(seed);
    }

    public String keyId() {
        return keyId;
    }

    /** Standard base64 of the raw 32-byte public key. */
    public String publicKey() {
        return Base64.getEncoder().encodeToString(rawPublicKey);
    }

    /** Standard base64 of the Ed25519 signature of the text's UTF-8 bytes. */
    public String sign(String text) {
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(privateKey);
            signature.update(text.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not sign a checkpoint", e);
        }
    }

    /** Whether {@code signature} (base64) is the key's signature of {@code text}. */
    public static boolean verify(String rawPublicKeyBase64, String text, String signatureBase64) {
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initVerify(publicKey(Base64.getDecoder().decode(rawPublicKeyBase64.trim())));
            signature.update(text.getBytes(StandardCharsets.UTF_8));
            return signature.verify(Base64.getDecoder().decode(signatureBase64));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    public static String keyIdOf(byte[] rawPublicKey) {
        return "ed25519-" + AuditChain.sha256Bytes(rawPublicKey).substring(0, 16);
    }

    public static String keyIdOf(String rawPublicKeyBase64) {
        return keyIdOf(Base64.getDecoder().decode(rawPublicKeyBase64.trim()));
    }

    private static PublicKey publicKey(byte[] raw) throws GeneralSecurityException {
        if (raw.length != SEED) {
            throw new GeneralSecurityException("an Ed25519 public key has 32 bytes");
        }
        byte[] der = Arrays.copyOf(PUBLIC_PREFIX, PUBLIC_PREFIX.length + SEED);
        System.arraycopy(raw, 0, der, PUBLIC_PREFIX.length, SEED);
        return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
    }

    private static byte[] raw(PublicKey key) {
        byte[] der = key.getEncoded();
        return Arrays.copyOfRange(der, der.length - SEED, der.length);
    }

    /** Never the key itself. */
    @Override
    public String toString() {
        return "AuditSigner[" + keyId + "]";
    }

    /** Hands out the seed, once, where a generator asks for randomness. */
    private static final class FixedSeed extends SecureRandom {
        private final byte[] seed;

        FixedSeed(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            System.arraycopy(seed, 0, bytes, 0, Math.min(seed.length, bytes.length));
        }
    }
}
